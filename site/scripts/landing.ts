import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import type { History } from '@/lib/schemas/history';
import type { Intraday } from '@/lib/schemas/intraday';
import type { Unavailable } from '@/lib/sources/unavailable';
import type { PriceEvent } from '@/lib/schemas/stream';
import { liveView, liveViewOfEvent, type LiveView, type SpotAnswer } from '../live-price-view';
import { CHART_CURRENCIES, CHART_LABELS, chartLabel, type ChartPlan, type DrawnIn } from '../chart-plan';
import { drawnQuery, USD_OZ } from '../../widgets/kinds';
import { libraryData, type LinePoint } from '../../widgets/scripts/line-frame';
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
/** What the panel draws, as the server decided it (site/mini-chart.tsx). */
const plan = JSON.parse(figure.dataset.plan!) as ChartPlan;
const chart: { api?: IChartApi; series?: ISeriesApi<'Area'> } = {};
/** `latest`: the recorded day, else the last 3 months' daily closes; `max`: the monthly averages since 1960. */
let range: 'latest' | 'max' = 'latest';
const pick = (name: 'currency' | 'unit') => figure.querySelector<HTMLSelectElement>(`select[name="${name}"]`)!;
/** What the lines are drawn in, as the panel's selects say; the page's `?currency=` and `?unit=` choose them first. */
const drawnIn = (): DrawnIn => ({ currency: pick('currency').value, unit: pick('unit').value });
const same = (a: DrawnIn, b: DrawnIn) => a.currency === b.currency && a.unit === b.unit;
{
  const asked = new URLSearchParams(location.search);
  const currency = asked.get('currency')?.toUpperCase();
  if (currency && (CHART_CURRENCIES as readonly string[]).includes(currency)) pick('currency').value = currency;
  const unit = asked.get('unit')?.toLowerCase();
  if (unit && [...pick('unit').options].some((o) => o.value === unit)) pick('unit').value = unit;
}
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

async function draw(points: LinePoint[], intraday: boolean) {
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
  // Placed by time: a hole in the series is drawn as a gap (widgets/scripts/line-frame.ts).
  chart.series!.setData(libraryData(points) as { time: UTCTimestamp; value: number }[]);
  chart.api.timeScale().fitContent();
}

/** Say why the panel is empty rather than leave it blank. */
function unavailablePanel(reason: string) {
  const box = figure.querySelector('.chart')!;
  chart.api?.remove();
  delete chart.api;
  box.setAttribute('role', 'status');
  box.replaceChildren(Object.assign(document.createElement('strong'), { textContent: 'History unavailable' }));
  box.append(Object.assign(document.createElement('p'), { className: 'muted', textContent: reason }));
}

const caption = (text: string) => (figure.querySelector('figcaption')!.textContent = text);

async function fillChart() {
  // A hidden tab asks nothing; the next turn after it is shown again catches up.
  if (document.visibilityState !== 'hidden' && range === 'latest') await drawLatest();
  // The recorded series grows by a point every 2 minutes, and replaces the daily closes once it holds enough.
  setTimeout(fillChart, INTRADAY_EVERY_MS);
}

async function drawLatest() {
  const drawn = drawnIn();
  let intraday: Intraday | Unavailable | undefined;
  // The recorded series is USD per troy ounce only: in another currency or unit, the daily closes are the latest line.
  if (same(drawn, USD_OZ))
    try {
      intraday = await apiJson<Intraday | Unavailable>('/api/v1/intraday?hours=24');
    } catch {
      // An intraday failure leaves the daily closes to show.
    }
  if (range !== 'latest' || !same(drawn, drawnIn())) return;
  const recorded = intraday ? pointsOf(intraday) : [];
  if (recorded.length >= 30) {
    caption(CHART_LABELS.intraday);
    return draw(
      recorded.map((x) => ({ time: x.t, value: x.p })),
      true,
    );
  }
  // The daily closes the server chose: spot where its bars cover the 3 months, else futures, each captioned so.
  await drawDaily(plan.daily.url, plan.daily.line, drawn, plan.daily.from);
}

/** A daily or monthly series from the history endpoint, from `from` on (a server that answers whole is cut there). */
async function drawDaily(url: string, line: 'spot' | 'daily' | 'monthly', drawn: DrawnIn, from = '') {
  caption(chartLabel(line, drawn));
  try {
    const history = await apiJson<History | Unavailable>(url + drawnQuery(drawn));
    // A later choice of range, currency or unit has drawn (or is drawing) its own line.
    if (!same(drawn, drawnIn()) || (line === 'monthly') !== (range === 'max')) return;
    if ('error' in history) return unavailablePanel(history.error);
    // The monthly series starts in 1960 in dollars, at the currency's first reference rate in another currency.
    if (line === 'monthly' && history.points.length) caption(chartLabel(line, drawn, history.points[0].d.slice(0, 4)));
    const closes = history.points.filter((x) => x.d >= from).map((x) => ({ time: day(x.d), value: x.c! }));
    if (closes.length >= 2) await draw(closes, false);
    else unavailablePanel(`The series has ${closes.length === 0 ? 'no close' : 'one close'} in this range yet.`);
  } catch (err) {
    unavailablePanel(String((err as Error).message));
  }
}

const redraw = () => void (range === 'max' ? drawDaily(plan.monthly.url, 'monthly', drawnIn()) : drawLatest());
figure.querySelectorAll<HTMLButtonElement>('[data-range]').forEach((b) =>
  b.addEventListener('click', () => {
    range = b.dataset.range as typeof range;
    figure.querySelectorAll('[data-range]').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
    redraw();
  }),
);
for (const select of [pick('currency'), pick('unit')]) select.addEventListener('change', redraw);

const near = new IntersectionObserver(
  (entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    near.disconnect();
    void fillChart();
  },
  { rootMargin: '300px' },
);
near.observe(figure);
