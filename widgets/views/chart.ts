import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ChartSymbol } from '../../lib/reference/instruments';
import type { Chart } from '../../lib/schemas/chart';
import type { DataState } from '../../lib/schemas/common';
import type { History } from '../../lib/schemas/history';
import type { Intraday } from '../../lib/schemas/intraday';
import { UNIT_LIST, type Unit } from '../../lib/reference/units';
import { chartTitle, isRate, lineLabel, symbolLabel, type ChartLine } from '../chart';
import { fill, money, number, percent, priceDecimals, updated } from '../format';
import { staleBadge } from '../price';
import { drawFrame, pointAt, type LinePoint } from '../scripts/line-frame';
import { field, setText } from '../scripts/shared';
import { app, connect, reader } from './host';

// The chart view (ui://gold/chart): the series of a get_gold_history, get_gold_intraday or
// compare_gold_to_asset result as the chart widget's first frame draws it (one line placed by time,
// its high and low, its first and last times), what the line is (COMEX futures, spot or the monthly
// averages, in the result's currency and unit, decisions §25) as the widget names it, the value under
// the pointer, and range buttons that ask the same tool again through the host (`tools/call`). It
// never fetches: every figure is a tool's result.

type ToolName = 'get_gold_history' | 'get_gold_intraday' | 'compare_gold_to_asset';

/** What is drawn: one series and the words around it. */
interface Drawn {
  tool: ToolName;
  symbol: ChartSymbol;
  points: LinePoint[];
  /** What the line is, and what it is in. */
  line: ChartLine;
  currency: string;
  unit: Unit;
  state: DataState;
  /** compare_gold_to_asset: each series' change over the range. */
  legend?: string;
}

/** The range argument each tool takes, the values the buttons offer and the one the tool assumes. */
const RANGES: Record<ToolName, { arg: 'range' | 'hours'; values: (string | number)[]; fallback: string | number }> = {
  get_gold_history: { arg: 'range', values: ['1m', '3m', '1y', '5y', 'max'], fallback: '1y' },
  compare_gold_to_asset: { arg: 'range', values: ['1m', '3m', '1y', '5y'], fallback: '1y' },
  get_gold_intraday: { arg: 'hours', values: [6, 12, 24, 48], fallback: 24 },
};
const RANGE_WORD = { '1m': 'r1mo', '3m': 'r3mo', '1y': 'r1y', '5y': 'r5y', max: 'rMax' } as const;
/** A metal's chart symbol from its lower-case symbol (the intraday `symbol`; a history `symbol` such as XAGUSD starts with it). */
const METAL_CHART: Record<string, ChartSymbol> = { xau: 'xau', xag: 'silver', xpt: 'platinum', xpd: 'palladium' };
const metalChart = (symbol: unknown): ChartSymbol => METAL_CHART[String(symbol).slice(0, 3).toLowerCase()] ?? 'xau';

let result: CallToolResult | undefined;
let drawn: Drawn | null = null;
/** The arguments of the call shown, as the host passed them (`ui/notifications/tool-input`). */
let input: Record<string, unknown> = {};
/** The history series the agent asked for: a range other than MAX goes back to it. */
let askedSeries: unknown;
let tool: ToolName | undefined;

const box = field('chart')!;
const dark = () => {
  const theme = document.documentElement.dataset.theme;
  return theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
};
const value = (v: number) =>
  drawn && isRate(drawn.symbol) ? number(v, reader.locale, 4) : money(v, drawn?.currency ?? 'USD', reader.locale, priceDecimals(drawn?.unit ?? 'oz'));
const when = (time: number) =>
  new Intl.DateTimeFormat(
    reader.locale,
    // A daily bar is a date: read in UTC, it is the same date everywhere.
    tool === 'get_gold_intraday'
      ? { dateStyle: 'medium', timeStyle: 'short', timeZone: reader.timeZone }
      : drawn?.line === 'monthly'
        ? { year: 'numeric', month: 'long', timeZone: 'UTC' }
        : { dateStyle: 'medium', timeZone: 'UTC' },
  ).format(new Date(time * 1000));

/** The series of a result, or null when it has none (unavailable, refused, failed). */
function seriesOf(r: CallToolResult | undefined): Drawn | null {
  const body = (r?.isError ? undefined : r?.structuredContent) as Record<string, unknown> | undefined;
  if (!body?.data_state) return null;
  const state = body.data_state as DataState;
  if (isChart(body.gold) && isChart(body.asset)) {
    const { gold, asset } = body as unknown as { gold: Chart & { change_pct: number | null }; asset: Chart & { change_pct: number | null } };
    const change = (c: typeof gold) => `${symbolLabel(c.symbol, reader.t)} ${c.change_pct === null ? '—' : percent(c.change_pct, reader.locale)}`;
    const points = gold.points.map((p) => ({ time: p.t, value: p.c }));
    // Gold's side of the comparison is the chart endpoint's COMEX futures (GC=F), USD per troy ounce.
    return {
      tool: 'compare_gold_to_asset',
      symbol: 'xau',
      points,
      line: 'futures',
      currency: gold.currency ?? 'USD',
      unit: 'oz',
      state,
      legend: `${change(gold)} · ${change(asset)}`,
    };
  }
  if (!Array.isArray(body.points)) return null;
  if (typeof body.hours === 'number') {
    const b = body as unknown as Intraday;
    return {
      tool: 'get_gold_intraday',
      symbol: metalChart(b.symbol),
      points: b.points.map((p) => ({ time: p.t, value: p.p })),
      line: 'intraday',
      currency: 'USD',
      unit: 'oz',
      state,
    };
  }
  // The London-time values (history series=london) have no line of their own here yet: never drawn as another series.
  if (typeof body.london_time === 'string') return null;
  // Daily points, grouped weekly, monthly or yearly bars (each drawn at its close), or the monthly series.
  if (body.interval === 'daily' || body.interval === 'weekly' || body.interval === 'monthly' || body.interval === 'yearly') {
    const points = (body as unknown as History).points.map((p) => ({ time: Date.parse(`${p.d}T00:00:00Z`) / 1000, value: p.c! }));
    const currency = typeof body.currency === 'string' ? body.currency : 'USD';
    return { tool: 'get_gold_history', symbol: metalChart(body.symbol), points, line: historyLine(body), currency, unit: unitOf(body.unit), state };
  }
  return null;
}

/**
 * What a history result is: its `series` where it names one (grouped COMEX bars are monthly by interval, futures by
 * series), else its interval and source ("COMEX gold futures…", "Daily spot bars…").
 */
function historyLine(body: Record<string, unknown>): ChartLine {
  if (body.series === 'futures' || body.series === 'spot' || body.series === 'monthly') return body.series;
  if (body.interval === 'monthly') return 'monthly';
  const source = String(body.source ?? '');
  return /futures/i.test(source) || !/spot/i.test(source) ? 'futures' : 'spot';
}

/** The unit of a converted result, by its id (`gram`) or its label (`troy_oz`); a troy ounce without one. */
function unitOf(unit: unknown): Unit {
  return UNIT_LIST.find((u) => u.id === unit || u.label === unit)?.id ?? 'oz';
}

function isChart(v: unknown): v is Chart {
  return typeof v === 'object' && v !== null && Array.isArray((v as Chart).points) && typeof (v as Chart).symbol === 'string';
}

/** The tool that gave the result shown: read from its shape, else from the host's context. */
function toolOf(d: Drawn | null): ToolName | undefined {
  const named = app.getHostContext()?.toolInfo?.tool.name;
  return d?.tool ?? (named && named in RANGES ? (named as ToolName) : tool);
}

function draw(): void {
  const t = reader.t;
  drawn = seriesOf(result);
  tool = toolOf(drawn);
  const symbol = drawn?.symbol ?? 'xau';
  document.title = chartTitle(symbol, t);
  field('main')?.setAttribute('aria-label', document.title);
  setText('head', symbolLabel(symbol, t));
  const line = drawn ? lineLabel(drawn.line, t, drawn) : '';
  setText('line', line, !line);
  buttons();
  if (!result) return;
  const points = drawn?.points ?? [];
  const last = points[points.length - 1];
  setText('price', last ? value(last.value) : '');
  drawFrame(box, points, dark() ? '#e0b53d' : '#a87b00', value, when);
  setText('legend', drawn?.legend ?? '', !drawn?.legend);
  setText('cross', resting());
  fresh();
}

/** What the line under the chart says while no pointer is on it: why nothing is drawn, or nothing. */
function resting(): string {
  const n = drawn?.points.length ?? 0;
  if (!result) return '';
  return !drawn ? reader.t.chartUnavailable : n < 2 ? fill(reader.t.recording, { n: number(n, reader.locale, 0) }) : '';
}

/** The freshness line and the stale badge, aged from the series' own time. */
function fresh(): void {
  const state = drawn?.state;
  const age = state?.as_of ? Math.max(0, (Date.now() - Date.parse(state.as_of)) / 1000) : null;
  setText('fresh', age === null ? '' : updated(reader, age));
  const badge = state?.status === 'stale' && age !== null ? staleBadge({ ...state, age_seconds: Math.floor(age) }, reader) : '';
  setText('badge', badge, !badge);
}

/** The range buttons of the tool shown, the current range pressed. */
function buttons(): void {
  const group = field('ranges')!;
  const ranges = tool && RANGES[tool];
  group.hidden = !ranges;
  group.setAttribute('aria-label', reader.t.range);
  if (!ranges) return group.replaceChildren();
  const body = result?.structuredContent as { range?: string; hours?: number } | undefined;
  // MAX is the monthly averages since 1960 (decisions §24), which palladium has not.
  const values = drawn?.symbol === 'palladium' ? ranges.values.filter((v) => v !== 'max') : ranges.values;
  const current = input.series === 'monthly' && input.range === 'max' ? 'max' : (input[ranges.arg] ?? body?.[ranges.arg] ?? ranges.fallback);
  const hours = new Intl.NumberFormat(reader.locale, { style: 'unit', unit: 'hour', unitDisplay: 'narrow' });
  group.replaceChildren(
    ...values.map((v) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = typeof v === 'number' ? hours.format(v) : reader.t[RANGE_WORD[v as keyof typeof RANGE_WORD]];
      b.setAttribute('aria-pressed', String(v === current));
      b.addEventListener('click', () => void pick(ranges.arg, v));
      return b;
    }),
  );
}

/**
 * Asks the tool shown again, through the host, for another range; a single day or a window of history becomes
 * a range. MAX asks history for the monthly series since 1960; another range, for the series the agent asked.
 */
async function pick(arg: 'range' | 'hours', v: string | number): Promise<void> {
  if (!tool) return;
  if (tool === 'get_gold_history') {
    const { date: _day, from: _from, to: _to, series: _series, ...rest } = input;
    const series = v === 'max' ? 'monthly' : askedSeries;
    input = { ...rest, ...(series === undefined ? {} : { series }), [arg]: v };
  } else input = { ...input, [arg]: v };
  if (tool === 'compare_gold_to_asset' && input.symbol === undefined && drawn) input.symbol = assetArg(result);
  buttons();
  try {
    result = await app.callServerTool({ name: tool, arguments: input });
  } catch {
    // The host could not ask: what is shown stays, and says the chart could not follow.
    return setText('cross', reader.t.chartUnavailable);
  }
  draw();
}

/** compare_gold_to_asset's `symbol` for the asset shown (the tool spells Bitcoin `btc`). */
function assetArg(r: CallToolResult | undefined): string | undefined {
  const symbol = (r?.structuredContent as { asset?: Chart } | undefined)?.asset?.symbol;
  return symbol === 'bitcoin' ? 'btc' : symbol;
}

/** The value under the pointer: the point nearest in time, as the frame places them. */
box.addEventListener('pointermove', (e) => {
  const points = drawn?.points ?? [];
  const frame = box.querySelector('svg')?.getBoundingClientRect();
  if (points.length < 2 || !frame?.width) return;
  const p = pointAt(points, (e.clientX - frame.left) / frame.width)!;
  setText('cross', `${when(p.time)} · ${value(p.value)}`);
});
box.addEventListener('pointerleave', () => setText('cross', resting()));

app.ontoolinput = (params) => {
  input = { ...(params.arguments ?? {}) };
  askedSeries = input.series;
};
app.ontoolresult = (r) => {
  result = r;
  draw();
};
setInterval(fresh, 1000);
void connect(draw);
