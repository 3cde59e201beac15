import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { History } from '@/lib/schemas/history';
import type { Intraday } from '@/lib/schemas/intraday';
import type { Unavailable } from '@/lib/sources/unavailable';
import type { PriceEvent } from '@/lib/schemas/stream';
import { liveView, liveViewOfEvent, type LiveView, type SpotAnswer } from '../live-price-view';
import { CHART_LABELS } from '../mini-chart';
import { follow, pollOnly } from '../../widgets/scripts/live';
import { field, poll, setText } from '../../widgets/scripts/shared';
import { apiJson } from './fetch-api';

// The landing page's behaviour: keep the server-rendered price live, and fill the chart panel when it
// is about to be seen. The chart library (the page's largest script) is a chunk of its own, loaded
// only then, so the price and the text paint without waiting for it.

const SPOT_EVERY_S = 30; // spot's cache time
const INTRADAY_EVERY_MS = 120_000; // the sampler's interval

function showPrice(view: LiveView) {
  setText('price', view.price);
  setText('state', view.state.text);
  field('state')!.className = view.state.className;
  setText('as-of', view.asOf);
  setText('details', view.details ?? '', !view.details);
  const change = field('change')!;
  change.hidden = !view.change;
  change.className = view.change?.dir ?? '';
  change.children[0].textContent = view.change?.arrow ?? '';
  change.children[1].textContent = view.change?.text ?? '';
}

// The widgets' poller, while the tab is visible. At once, as a widget's: the page may be a cached copy
// (it is cacheable for spot's time), so the price it came with may be a little behind.
const polling = () =>
  poll<SpotAnswer>(
    () => '/api/v1/spot?compact=1',
    SPOT_EVERY_S,
    (status, body) => {
      // 200 and 503 both say what is known; anything else (a 429, say) keeps what is shown, which states its own age.
      if (status === 200 || status === 503) showPrice(liveView(body as SpotAnswer));
    },
  );

// Pushed instead, unless the page says `?live=0` or the stream cannot be had (then the poller, silently).
// Between events a stale price's age keeps counting.
let last: PriceEvent | null = null;
const stream = pollOnly()
  ? null
  : follow(
      () => '/api/v1/stream',
      (e) => showPrice(liveViewOfEvent((last = e))),
      polling,
    );
if (stream) {
  stream.open();
  setInterval(() => {
    if (last?.data_state.status === 'stale') showPrice(liveViewOfEvent(last));
  }, 1000);
} else polling();

/** The points of a series answer; none when it is unavailable. */
const pointsOf = <P>(answer: { points: P[] } | Unavailable): P[] => ('points' in answer ? answer.points : []);

const figure = document.getElementById('mini-chart')!;
const chart: { api?: IChartApi; series?: ISeriesApi<'Area'> } = {};

async function draw(points: { time: UTCTimestamp | string; value: number }[], intraday: boolean) {
  const { AreaSeries, createChart } = await import('./area-chart');
  const box = figure.querySelector<HTMLElement>('.chart')!;
  if (box.getAttribute('role') === 'status') {
    box.removeAttribute('role');
    box.replaceChildren();
  }
  if (!chart.api) {
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    chart.api = createChart(box, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: dark ? '#b3ab98' : '#5f584a', attributionLogo: true },
      grid: { vertLines: { visible: false }, horzLines: { color: dark ? '#393426' : '#eee7d6' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
    });
    // The line keeps 3:1 against the page (WCAG non-text contrast) in both themes.
    const line = dark ? '#c99a1c' : '#a87b00';
    chart.series = chart.api.addSeries(AreaSeries, { lineColor: line, topColor: `${line}59`, bottomColor: `${line}05`, lineWidth: 2 });
  }
  chart.api.applyOptions({ timeScale: { timeVisible: intraday } });
  chart.series!.setData(points as never);
  chart.api.timeScale().fitContent();
}

/** Say why the panel is empty rather than leave it blank. */
function unavailablePanel(reason: string) {
  const box = figure.querySelector('.chart')!;
  box.setAttribute('role', 'status');
  box.replaceChildren(Object.assign(document.createElement('strong'), { textContent: 'History unavailable' }));
  box.append(Object.assign(document.createElement('p'), { className: 'muted', textContent: reason }));
}

async function fillChart() {
  // A hidden tab asks nothing; the next turn after it is shown again catches up.
  if (document.visibilityState !== 'hidden') await drawLatest();
  // The recorded series grows by a point every 2 minutes, and replaces the daily closes once it holds enough.
  setTimeout(fillChart, INTRADAY_EVERY_MS);
}

/** The UTC date `n` days before today, YYYY-MM-DD. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function drawLatest() {
  let intraday: Intraday | Unavailable | undefined;
  try {
    intraday = await apiJson<Intraday | Unavailable>('/api/v1/intraday?hours=24');
  } catch {
    // An intraday failure leaves the daily closes to show.
  }
  const recorded = intraday ? pointsOf(intraday) : [];
  if (recorded.length >= 30) {
    figure.querySelector('figcaption')!.textContent = CHART_LABELS.intraday;
    return draw(
      recorded.map((x) => ({ time: x.t as UTCTimestamp, value: x.p })),
      true,
    );
  }
  try {
    // The daily spot bars when they reach back three months; a new deployment's do not yet.
    const spot = await apiJson<History | Unavailable>('/api/v1/history?series=spot');
    if (!('error' in spot) && spot.points.length >= 2 && spot.points[0].d <= daysAgo(92)) {
      figure.querySelector('figcaption')!.textContent = CHART_LABELS.spot;
      return await draw(
        spot.points.filter((x) => x.d >= daysAgo(92)).map((x) => ({ time: x.d, value: x.c })),
        false,
      );
    }
  } catch {
    // Unreachable spot series: the futures closes, labelled as such.
  }
  figure.querySelector('figcaption')!.textContent = CHART_LABELS.daily;
  try {
    const history = await apiJson<History | Unavailable>('/api/v1/history');
    if ('error' in history) return unavailablePanel(history.error);
    const closes = history.points.slice(-66).map((x) => ({ time: x.d, value: x.c }));
    if (closes.length >= 2) await draw(closes, false);
  } catch (err) {
    unavailablePanel(String((err as Error).message));
  }
}

const near = new IntersectionObserver(
  (entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    near.disconnect();
    void fillChart();
  },
  { rootMargin: '300px' },
);
near.observe(figure);
