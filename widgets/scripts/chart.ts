import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { Chart } from '../../lib/schemas/chart';
import type { DataState } from '../../lib/schemas/common';
import type { History } from '../../lib/schemas/history';
import type { Intraday } from '../../lib/schemas/intraday';
import { fill, money, number, updated, type Words } from '../format';
import type { RangeSeries } from '../chart';
import { drawFrame, libraryData, type LinePoint } from './line-frame';
import type { MetalId } from '../../lib/reference/metals';
import type { PriceEvent } from '../../lib/schemas/stream';
import { follow } from './live';
import { config, field, poll, reportHeight, setText, type Answer } from './shared';

// Draws the chart from the public API: real points only (intraday samples, daily spot closes, OHLC
// closes or monthly averages), placed by time so a hole shows as one, a range switcher, what the line is
// (spot, futures or monthly averages, and its currency and unit, named under the headline), the price
// under the crosshair, and the size of its frame. The points are drawn
// first as a plain SVG line (line-frame.ts); the chart library, whose start-up is most of the
// widget's main-thread time, is loaded when a pointer or focus comes to the widget, and takes over.

interface Config extends Words {
  locale: string;
  range: string;
  /** Per range, as the server decided it (widgets/chart.ts): the request, what its line is and its label, its currency and decimals. */
  series: Record<string, RangeSeries>;
  state: DataState;
  /** The metal whose price stream extends the 1D line (gold, silver), or null (another asset, or `live=0`). */
  live: MetalId | null;
}

const cfg = config<Config>();
let range = cfg.range;
/** The last answer's points, drawn by whichever of the frame and the library is showing. */
let points: LinePoint[] = [];
/** 1D: prices pushed by the stream since the recorded series was last fetched. */
const pushed: LinePoint[] = [];
let live: { chart: IChartApi; series: ISeriesApi<'Line'> } | undefined;
const box = field('chart')!;
const dark = () => {
  const t = document.documentElement.dataset.theme;
  return t === 'dark' || (t === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
};
const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const lineColor = () => (dark() ? '#e0b53d' : '#a87b00');
const fmt = (v: number) => {
  const { decimals, currency, rate } = cfg.series[range];
  return rate ? number(v, cfg.locale, decimals) : money(v, currency, cfg.locale, decimals);
};
const intradayRange = () => ['1d', '5d'].includes(range);
/** A time as the range shows it: with the hour for the intraday ranges; a date (read in UTC, the same date everywhere) for daily bars; month and year for monthly averages. */
const when = (t: number) =>
  new Intl.DateTimeFormat(
    cfg.locale,
    intradayRange()
      ? { dateStyle: 'medium', timeStyle: 'short' }
      : cfg.series[range].line === 'monthly'
        ? { year: 'numeric', month: 'short', timeZone: 'UTC' }
        : { dateStyle: 'medium', timeZone: 'UTC' },
  ).format(new Date(t * 1000));

function show() {
  if (!live) return drawFrame(box, points, lineColor(), fmt, when);
  // Empty slots across a hole, so the library draws it as a gap (line-frame.ts).
  live.series.setData(libraryData(points) as { time: UTCTimestamp; value: number }[]);
  live.chart.applyOptions({ timeScale: { timeVisible: ['1d', '5d', '1mo'].includes(range) } });
  live.chart.timeScale().fitContent();
}

type Point = Intraday['points'][number] | Chart['points'][number] | History['points'][number];
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

/** Names what the shown range's line is, under the headline, in the server's words. */
function labelLine() {
  const { label } = cfg.series[range];
  setText('line', label, label === '');
}

function draw(status: number, body: Answer<Intraday | Chart | History>) {
  if (status !== 200 || !('points' in body)) {
    points = [];
    show();
    setText('cross', 'error' in body ? cfg.t.chartUnavailable : '');
    return;
  }
  // A daily series answered whole (a server before `from`): the range shows its part of it.
  const from = cfg.series[range].from ?? '';
  points = (body.points as Point[])
    .filter((p) => !('d' in p) || p.d >= from)
    .map((p) => ('d' in p ? { time: day(p.d), value: p.c! } : { time: p.t, value: 'p' in p ? p.p : p.c }));
  if (range === '1d') extend();
  show();
  if (points.length < 2) setText('cross', fill(cfg.t.recording, { n: number(points.length, cfg.locale, 0) }));
  else setText('cross', '');
  const state = body.data_state;
  if (state.as_of) setText('fresh', updated(cfg, (Date.now() - Date.parse(state.as_of)) / 1000));
}

async function startLibrary() {
  const { createChart, LineSeries } = await import('./line-chart');
  box.replaceChildren();
  const chart = createChart(box, {
    autoSize: true,
    // Month names on the time axis in the widget's locale, not the browser's.
    localization: { locale: cfg.locale },
    layout: { background: { color: 'transparent' }, textColor: css('--muted'), fontSize: 11, attributionLogo: true },
    grid: { vertLines: { visible: false }, horzLines: { color: css('--line') } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: true },
    crosshair: { horzLine: { labelVisible: true } },
  });
  const series = chart.addSeries(LineSeries, { color: lineColor(), lineWidth: 2, priceLineVisible: false });
  chart.subscribeCrosshairMove((p) => {
    const point = p.seriesData.get(series) as { value?: number } | undefined;
    if (p.time === undefined || point?.value === undefined) return setText('cross', '');
    setText('cross', `${when(p.time as number)} · ${fmt(point.value)}`);
  });
  live = { chart, series };
  show();
}

// A reader reaching for the widget (a pointer over it, or keyboard focus in it) starts the library.
const start = () => {
  document.removeEventListener('pointerover', start);
  document.removeEventListener('focusin', start);
  // Offline or blocked: the frame stays, and still follows the data.
  startLibrary().catch(() => undefined);
};
document.addEventListener('pointerover', start);
document.addEventListener('focusin', start);

// One day's series grows every 2 minutes (the sampler); the longer ones change slower.
const refresh = poll(
  () => cfg.series[range].url,
  () => (range === '1d' ? 120 : 300),
  draw,
);

// 1D of gold or silver also follows the price stream: between the recorded series' refreshes, each new
// fresh price (at its own time) is the line's newest point. Only 1D: the other ranges are bars.
function extend() {
  const last = points.at(-1)?.time ?? 0;
  // A price the recorded series now holds (or passed) is dropped; newer ones extend the line.
  while (pushed.length && pushed[0].time <= last) pushed.shift();
  points = points.concat(pushed);
}
const stream = cfg.live
  ? follow(
      () => '/api/v1/stream?currency=USD',
      (e: PriceEvent) => {
        const m = e.metals[cfg.live!];
        if (range !== '1d' || m.usd_oz === null || m.data_state.status !== 'fresh' || !m.data_state.as_of) return;
        const time = Math.floor(Date.parse(m.data_state.as_of) / 1000);
        if (time <= (points.at(-1)?.time ?? -Infinity)) return;
        pushed.push({ time, value: m.usd_oz });
        points = points.concat({ time, value: m.usd_oz });
        show();
      },
      () => undefined,
    )
  : null;
const follow1d = () => (range === '1d' ? stream?.open() : stream?.close());
follow1d();

document.querySelectorAll<HTMLButtonElement>('[data-range]').forEach((b) =>
  b.addEventListener('click', () => {
    range = b.dataset.range!;
    document.querySelectorAll('[data-range]').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
    pushed.length = 0;
    labelLine();
    follow1d();
    void refresh();
  }),
);
reportHeight();
