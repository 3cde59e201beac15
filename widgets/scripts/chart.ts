import type { Chart } from '../../lib/schemas/chart';
import type { DataState } from '../../lib/schemas/common';
import type { History } from '../../lib/schemas/history';
import type { Intraday } from '../../lib/schemas/intraday';
import { fill, money, number, updated, type Words } from '../format';
import type { RangeSeries } from '../chart';
import type { LineRange } from '../kinds';
import { changeWords, linePoints, timeWords } from './chart-line';
import type { LineChart } from './line-chart';
import { drawFrame, libraryData, type LinePoint } from './line-frame';
import type { MetalId } from '../../lib/reference/metals';
import type { PriceEvent } from '../../lib/schemas/stream';
import { follow } from './live';
import { config, field, poll, reportHeight, setText, type Answer } from './shared';

// Draws the chart from the public API: real points only (intraday samples, daily spot closes, OHLC
// closes or monthly averages), placed by time so a hole shows as one, a range switcher, what the line is
// (spot, futures or monthly averages, and its currency and unit, named under the headline), the price
// under the crosshair, the range's change in words, a logarithmic scale on MAX, and the size of its
// frame. The price pages' chart (site/scripts/price-chart-view.ts) draws with the same parts. The points are drawn
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
let live: LineChart | undefined;
/** MAX on a logarithmic price scale (its toggle shows on MAX only). */
let log = false;
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
const when = (t: number) => timeWords(t, cfg.locale, range, cfg.series[range].line);

function show() {
  setText('change', changeWords(points, range as LineRange, cfg.locale, cfg.t));
  if (!live) return drawFrame(box, points, lineColor(), fmt, when);
  // Empty slots across a hole, so the library draws it as a gap (line-frame.ts).
  const { decimals } = cfg.series[range];
  live.draw(libraryData(points), ['1d', '5d', '1mo'].includes(range), { format: (v) => number(v, cfg.locale, decimals), minMove: 10 ** -decimals });
  scale();
}

/** MAX on the logarithmic scale when asked; the box says which scale the library now draws. */
function scale() {
  if (live) box.dataset.scale = live.logScale(log && range === 'max') ? 'log' : 'linear';
}

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
  points = linePoints(body.points, cfg.series[range].from);
  if (range === '1d') extend();
  show();
  if (points.length < 2) setText('cross', fill(cfg.t.recording, { n: number(points.length, cfg.locale, 0) }));
  else setText('cross', '');
  const state = body.data_state;
  if (state.as_of) setText('fresh', updated(cfg, (Date.now() - Date.parse(state.as_of)) / 1000));
}

async function startLibrary() {
  const { startLineChart } = await import('./line-chart');
  box.replaceChildren();
  live = startLineChart(box, {
    locale: cfg.locale,
    color: lineColor(),
    textColor: css('--muted'),
    gridColor: css('--line'),
    onCross: (p) => setText('cross', p ? `${when(p.time)} · ${fmt(p.value)}` : ''),
  });
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
    field('log')!.hidden = range !== 'max';
    pushed.length = 0;
    labelLine();
    follow1d();
    void refresh();
  }),
);
// MAX spans decades of a rising price: a logarithmic scale shows each decade's moves at their true proportion.
field('log')!.addEventListener('click', () => {
  log = !log;
  field('log')!.setAttribute('aria-pressed', String(log));
  scale();
  // The first frame has no scale to change: the library takes over (the click's focus has started it already).
  if (!live) start();
});
reportHeight();
