import { daysBefore } from '../lib/calendar/dates';
import type { ChartSymbol } from '../lib/reference/instruments';
import { metalById, type IntradaySymbol, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import { fill, money, number, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
import type { Strings } from './i18n';
import { CHART_WIDGET_RANGES, type ChartWidgetRange } from './kinds';
import type { CommonOptions } from './options';
import { staleBadge } from './price';

// The chart widget: the headline price (server-rendered) and a line over the chosen range, drawn by
// its script from the public API (first as a plain SVG frame, then by lightweight-charts). Every line
// says what it is (decisions §23). For a metal, whose headline is its spot price: one day is the
// first-party intraday spot series; a longer range is the daily spot bars the service records when
// they cover it, else the COMEX futures bars, labelled as futures. Other assets: the chart endpoint.

/** Each asset's name in the page's language; index and pair names read the same everywhere. */
const SYMBOL_NAME: Record<ChartSymbol, (t: Strings) => string> = {
  xau: (t) => t.gold,
  silver: (t) => t.silver,
  bitcoin: (t) => t.bitcoin,
  sp500: () => 'S&P 500',
  nasdaq: () => 'Nasdaq',
  dxy: (t) => t.dxy,
  eurusd: () => 'EUR/USD',
  oil: (t) => t.oil,
  platinum: (t) => t.platinum,
  palladium: (t) => t.palladium,
};
export const symbolLabel = (symbol: ChartSymbol, t: Strings) => SYMBOL_NAME[symbol](t);

const RANGE_KEY = { '1d': 'r1d', '5d': 'r5d', '1mo': 'r1mo', '3mo': 'r3mo', '1y': 'r1y', '5y': 'r5y' } as const satisfies Record<
  ChartWidgetRange,
  keyof Strings
>;

/** The chart symbols that are a served metal: their headline is spot, and so is their line where the service has it. */
export const CHART_METAL: Partial<Record<ChartSymbol, MetalId>> = { xau: 'gold', silver: 'silver', platinum: 'platinum', palladium: 'palladium' };

/** What a range's line is: spot recorded every 2 minutes, daily spot bars, COMEX futures bars, or another asset's own bars. */
export type ChartLine = 'intraday' | 'spot' | 'futures' | 'asset';

/** Calendar days each range spans, counted back from today. */
const RANGE_DAYS: Record<Exclude<ChartWidgetRange, '1d'>, number> = { '5d': 7, '1mo': 31, '3mo': 92, '1y': 366, '5y': 1827 };

/** The API request behind a range and what its line is; `from`: the first date a spot line shows. */
export interface RangeSeries {
  url: string;
  line: ChartLine;
  from?: string;
}

/**
 * The series behind each range: real points only. `spotFrom` is the metal's first daily spot bar (null
 * without one): the daily spot bars serve a range only when they reach back to its start.
 */
export function rangeSeries(symbol: ChartSymbol, range: ChartWidgetRange, spotFrom: string | null, today: string): RangeSeries {
  const metal = CHART_METAL[symbol];
  const intraday: IntradaySymbol | null = metal ? metalById(metal).intraday : null;
  if (range === '1d' && intraday) return { url: `/api/v1/intraday?symbol=${intraday}&hours=24`, line: 'intraday' };
  if (range !== '1d' && intraday && spotFrom !== null) {
    const from = daysBefore(today, RANGE_DAYS[range]);
    if (spotFrom <= from) return { url: `/api/v1/history?series=spot&symbol=${intraday}`, line: 'spot', from };
  }
  const interval = { '1d': '5m', '5d': '15m', '1mo': '90m', '3mo': '1d', '1y': '1d', '5y': '1wk' }[range];
  return { url: `/api/v1/chart?symbol=${symbol}&range=${range}&interval=${interval}`, line: metal ? 'futures' : 'asset' };
}

/** What the line is, in the page's language; nothing for an asset, which the title names. */
export function lineLabel(line: ChartLine, t: Strings): string {
  return line === 'intraday' ? t.lineIntraday : line === 'spot' ? t.lineSpot : line === 'futures' ? t.lineFutures : '';
}

export interface ChartOptions extends CommonOptions {
  symbol: ChartSymbol;
  range: ChartWidgetRange;
}

export interface ChartView {
  opts: ChartOptions;
  /** What the first range's line is. */
  line: ChartLine;
  /** Latest real price to headline (spot for gold and silver), or null. */
  latest: number | null;
  latestCurrency: string;
  state: DataState;
  origin: string;
  words: Words;
}

export function renderChart(v: ChartView): SafeHtml {
  const o = v.opts;
  const t = v.words.t;
  const badge = staleBadge(v.state, v.words);
  const headline = v.latest === null ? '' : isRate(o.symbol) ? number(v.latest, o.locale, 4) : money(v.latest, v.latestCurrency, o.locale);
  return html`<main class="w" aria-label="${chartTitle(o.symbol, t)}">
<div class="h"><span>${symbolLabel(o.symbol, t)}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price">${headline}</div>
<div class="line" data-f="line"${v.line === 'asset' ? ' hidden' : ''}>${lineLabel(v.line, t)}</div>
<div class="ranges" role="group" aria-label="${t.range}">${CHART_WIDGET_RANGES.map(
    (r) => html`<button type="button" data-range="${r}" aria-pressed="${r === o.range ? 'true' : 'false'}">${t[RANGE_KEY[r]]}</button>`,
  )}</div>
<div class="chart" data-f="chart"></div>
<div class="row"><span data-f="cross" aria-live="polite"></span></div>
${footer(v.state.age_seconds === null ? '' : updated(v.words, v.state.age_seconds), v.origin)}
<noscript><p>${t.chartNoscript}</p></noscript>
</main>`;
}

/** "Gold price chart", for the page title and its landmark. */
export const chartTitle = (symbol: ChartSymbol, t: Strings) => fill(t.chartTitle, { name: symbolLabel(symbol, t) });

// The first frame (widgets/scripts/line-frame.ts) lays out as the library does: the plot, the price
// scale's width on the right for the high and the low, the time axis's height below for the first and last times.
export const CHART_CSS = `.line{color:var(--muted);font-size:12px}.ranges{display:flex;gap:4px;flex-wrap:wrap;margin:6px 0}.ranges button{padding:2px 8px;font-size:12px;cursor:pointer}.ranges button[aria-pressed=true]{border-color:var(--gold);color:var(--gold);font-weight:700}.chart{height:200px;position:relative}
.frame{position:absolute;left:0;top:8px;width:calc(100% - 76px);height:calc(100% - 42px)}
.chart span{position:absolute;color:var(--muted);font-size:11px;font-variant-numeric:tabular-nums;white-space:nowrap}
[data-f=hi]{right:0;top:0}[data-f=lo]{right:0;bottom:26px}[data-f=t0]{left:0;bottom:4px}[data-f=t1]{right:76px;bottom:4px}`;

/** An index or an exchange rate: shown with four decimals and no currency sign. */
export function isRate(symbol: ChartSymbol): boolean {
  return symbol === 'eurusd' || symbol === 'dxy';
}
