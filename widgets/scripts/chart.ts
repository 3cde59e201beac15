import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { Chart } from '../../lib/schemas/chart';
import type { DataState } from '../../lib/schemas/common';
import type { Intraday } from '../../lib/schemas/intraday';
import { fill, money, number, updated, type Words } from '../format';
import { drawFrame, type LinePoint } from './line-frame';
import { config, field, poll, reportHeight, setText, type Answer } from './shared';

// Draws the chart from the public API: real points only (intraday samples or OHLC closes), a
// range switcher, the price under the crosshair, and the size of its frame. The points are drawn
// first as a plain SVG line (line-frame.ts); the chart library, whose start-up is most of the
// widget's main-thread time, is loaded when a pointer or focus comes to the widget, and takes over.

interface Config extends Words {
  locale: string;
  range: string;
  urls: Record<string, string>;
  currency: string;
  state: DataState;
  decimals: number;
}

const cfg = config<Config>();
let range = cfg.range;
/** The last answer's points, drawn by whichever of the frame and the library is showing. */
let points: LinePoint[] = [];
let live: { chart: IChartApi; series: ISeriesApi<'Line'> } | undefined;
const box = field('chart')!;
const dark = () => {
  const t = document.documentElement.dataset.theme;
  return t === 'dark' || (t === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
};
const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const lineColor = () => (dark() ? '#e0b53d' : '#a87b00');
const fmt = (v: number) => (cfg.decimals === 4 ? number(v, cfg.locale, 4) : money(v, cfg.currency, cfg.locale));
const intradayRange = () => ['1d', '5d'].includes(range);
const when = (t: number) =>
  new Intl.DateTimeFormat(cfg.locale, intradayRange() ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(
    new Date(t * 1000),
  );

function show() {
  if (!live) return drawFrame(box, points, lineColor(), fmt, when);
  live.series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
  live.chart.applyOptions({ timeScale: { timeVisible: ['1d', '5d', '1mo'].includes(range) } });
  live.chart.timeScale().fitContent();
}

type Point = Intraday['points'][number] | Chart['points'][number];

function draw(status: number, body: Answer<Intraday | Chart>) {
  if (status !== 200 || !('points' in body)) {
    points = [];
    show();
    setText('cross', 'error' in body ? cfg.t.chartUnavailable : '');
    return;
  }
  points = (body.points as Point[]).map((p) => ({ time: p.t, value: 'p' in p ? p.p : p.c }));
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
  () => cfg.urls[range],
  () => (range === '1d' ? 120 : 300),
  draw,
);

document.querySelectorAll<HTMLButtonElement>('[data-range]').forEach((b) =>
  b.addEventListener('click', () => {
    range = b.dataset.range!;
    document.querySelectorAll('[data-range]').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
    void refresh();
  }),
);
reportHeight();
