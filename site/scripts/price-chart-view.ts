import type { Chart } from '@/lib/schemas/chart';
import type { History } from '@/lib/schemas/history';
import type { Intraday } from '@/lib/schemas/intraday';
import { METAL_IDS, type MetalId } from '@/lib/reference/metals';
import { priceIn } from '@/lib/prices/price-in';
import { UNITS, type Unit } from '@/lib/reference/units';
import { intradayAtRateNow, RANGE_KEY, rangeSeries } from '@/widgets/chart';
import { fill, money, number } from '@/widgets/format';
import { textFor } from '@/widgets/i18n';
import { PRICE_CHART_RANGES, type PriceChartRange } from '@/widgets/kinds';
import { changeWords, isIntradayRange, linePoints, timeWords } from '@/widgets/scripts/chart-line';
import type { LineChart } from '@/widgets/scripts/line-chart';
import { drawFrame, libraryData, type LinePoint } from '@/widgets/scripts/line-frame';
import { poll, type Answer } from '@/widgets/scripts/shared';
import { DEFAULT_PRICE_CHART_RANGE, METAL_SYMBOL, pickRange, type PriceChartPlan } from '../price-chart-plan';

// The price pages' chart (decisions §27), mounted into the page's chart section once it is wanted
// (site/scripts/price-chart.ts loads this module then). It draws with the chart widget's parts
// (widgets/scripts/line-chart.ts, chart-line.ts, line-frame.ts) what the server planned (site/price-chart.ts, in
// the section's `data-plan`): each range's real points placed by time, the series named in a caption, the range's
// change in words, the date and value under the crosshair, a logarithmic scale on MAX, and the range in the page's
// URL (`?range=`). As in the chart widget, the points are drawn first as a plain SVG line (line-frame.ts); the chart
// library, whose start-up is most of the chart's main-thread time (about a second of a phone's CPU: on a phone the
// section's top is on the first screen, so it would run with the page), is a chunk of its own, loaded when a pointer
// or focus comes to the chart (or its logarithmic scale is asked for), and takes over.

/** The chart's own look, once per page: it fills the section, whose fixed height the page holds before it comes. */
const CSS = `.pc{display:flex;flex-direction:column;height:100%;gap:4px;font-size:14px}
.pc-bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;justify-content:space-between}
.pc-ranges{display:flex;flex-wrap:wrap;gap:4px}
.pc button{font:inherit;font-size:13px;padding:3px 10px;min-height:28px;border:1px solid var(--ctl,#8a8270);border-radius:6px;background:var(--card,#fff);color:var(--fg,#1d1a12);cursor:pointer}
.pc button[aria-pressed=true]{border-color:var(--gold,#8a6500);color:var(--gold,#8a6500);font-weight:700}
.pc p{margin:0;color:var(--muted,#5f584a);font-size:13px;min-height:1.5em}
.pc-change{color:var(--fg,#1d1a12)!important;font-weight:600}
.pc-plot{flex:1;min-height:0;position:relative}
.pc-plot[role=status]{display:flex;align-items:center;justify-content:center;color:var(--muted,#5f584a)}
.pc-plot>.frame{position:absolute;left:0;top:8px;width:calc(100% - 76px);height:calc(100% - 42px)}
.pc-plot>span{position:absolute;color:var(--muted,#5f584a);font-size:11px;font-variant-numeric:tabular-nums;white-space:nowrap}
.pc-plot>[data-f=hi]{right:0;top:0}.pc-plot>[data-f=lo]{right:0;bottom:26px}.pc-plot>[data-f=t0]{left:0;bottom:4px}.pc-plot>[data-f=t1]{right:76px;bottom:4px}`;

/** The page's values of a custom property, read at mount (light or dark, as the page is shown). */
const cssVar = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** What the chart is in, from the section's data attributes (as the page rendered them). */
function sectionPage(section: HTMLElement) {
  const d = section.dataset;
  const metal = ((METAL_IDS as readonly string[]).includes(d.metal ?? '') ? d.metal : 'gold') as MetalId;
  const unit = ((UNITS as readonly string[]).includes(d.unit ?? '') ? d.unit : 'oz') as Unit;
  const currency = (d.currency ?? 'USD').toUpperCase();
  const lang = d.lang || document.documentElement.lang || 'en';
  return { metal, unit, currency, lang };
}

/**
 * The server's plan from the section's `data-plan`. A page that gave none gets the plan the script can make
 * without the store: no window counted as covered by the spot bars, so every daily range draws COMEX futures,
 * labelled so (never a line called spot that the server did not judge to be).
 */
function planOf(section: HTMLElement, page: ReturnType<typeof sectionPage>): PriceChartPlan {
  try {
    const plan = section.dataset.plan ? (JSON.parse(section.dataset.plan) as PriceChartPlan) : null;
    if (plan && PRICE_CHART_RANGES.every((r) => plan.series?.[r]?.url)) return plan;
  } catch {
    // Not the server's plan: the one below.
  }
  const today = new Date().toISOString().slice(0, 10);
  const t = textFor(page.lang).t;
  const drawn = { currency: page.currency, unit: page.unit };
  const series = Object.fromEntries(
    PRICE_CHART_RANGES.map((r) => [r, intradayAtRateNow(rangeSeries(METAL_SYMBOL[page.metal], r, false, today, drawn, t), drawn, t)]),
  );
  return { series } as PriceChartPlan;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}) =>
  Object.assign(document.createElement(tag), props);

/**
 * The points of a line that comes in USD per troy ounce (`atRateNow`) in the page's currency and unit, at the rate spot
 * uses now: the page's own `fx_rate`, which the page writes in the section's `data-fx-rate` and its script keeps live.
 * Each rounded as spot rounds a price in that unit. Null when the page has no rate (no price was ever seen).
 */
function atRate(points: LinePoint[], s: PriceChartPlan['series'][PriceChartRange], section: HTMLElement): LinePoint[] | null {
  if (!s.atRateNow) return points;
  const rate = Number(section.dataset.fxRate);
  if (!(rate > 0)) return null;
  const { unit } = s.atRateNow;
  return points.map((p) => ({ time: p.time, value: priceIn(p.value, rate, unit) }));
}

/** Mounts the chart into `section` (the price page's `<section id="chart" data-metal data-currency data-unit data-lang data-range>`); once. */
export function mountPriceChart(section: HTMLElement): void {
  if (section.dataset.mounted) return;
  section.dataset.mounted = 'true';
  const page = sectionPage(section);
  const { t } = textFor(page.lang);
  const locale = page.lang;
  const plan = planOf(section, page);
  let range: PriceChartRange =
    pickRange(new URLSearchParams(location.search).get('range')) ?? pickRange(section.dataset.range) ?? DEFAULT_PRICE_CHART_RANGE;
  let log = false;
  let points: LinePoint[] = [];

  if (!document.getElementById('pc-css')) document.head.append(el('style', { id: 'pc-css', textContent: CSS }));
  const group = el('div', { className: 'pc-ranges' });
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', t.range);
  const buttons = PRICE_CHART_RANGES.map((r) => {
    const b = el('button', { type: 'button', textContent: t[RANGE_KEY[r]] });
    b.dataset.range = r;
    group.append(b);
    return b;
  });
  const logButton = el('button', { type: 'button', className: 'pc-log', textContent: t.logScale });
  logButton.setAttribute('aria-pressed', 'false');
  const caption = el('p', { className: 'pc-caption' });
  const change = el('p', { className: 'pc-change' });
  const plot = el('div', { className: 'pc-plot' });
  const cross = el('p', { className: 'pc-cross' });
  const bar = el('div', { className: 'pc-bar' });
  bar.append(group, logButton);
  const root = el('div', { className: 'pc' });
  root.append(bar, caption, change, plot, cross);
  // The placeholder the page held the chart's height with gives way to the chart, in the same box.
  section.replaceChildren(root);

  const fmt = (v: number) => {
    const s = plan.series[range];
    return s.rate ? number(v, locale, s.decimals) : money(v, s.currency, locale, s.decimals);
  };
  const when = (time: number) => timeWords(time, locale, range, plan.series[range].line);
  const color = matchMedia('(prefers-color-scheme: dark)').matches ? '#c99a1c' : '#a87b00';
  /** The library's chart once it has taken over; until then the first frame draws. */
  let chart: LineChart | undefined;

  /** Draws the points shown (with empty slots across each hole for the library, line-frame.ts). */
  function drawPoints(drawing: PriceChartRange) {
    if (!chart) return drawFrame(plot, points, color, fmt, when);
    const { decimals } = plan.series[drawing];
    chart.draw(libraryData(points), isIntradayRange(drawing) || drawing === '1mo', {
      format: (v) => number(v, locale, decimals),
      minMove: 10 ** -decimals,
    });
  }

  function applyScale() {
    const on = log && range === 'max';
    logButton.setAttribute('aria-pressed', String(on));
    // What the library itself now says its scale is, for whoever reads the page (and its tests); the first frame's
    // line is linear.
    section.dataset.scale = chart?.logScale(on) ? 'log' : 'linear';
  }

  // A reader reaching for the chart (a pointer over it, a touch, keyboard focus in it) starts the library, which
  // replaces the first frame in the same box.
  let starting: Promise<void> | undefined;
  const startLibrary = () =>
    (starting ??= import('../../widgets/scripts/line-chart').then(({ startLineChart }) => {
      plot.replaceChildren();
      chart = startLineChart(plot, {
        locale,
        color,
        textColor: cssVar('--muted', '#5f584a'),
        gridColor: cssVar('--line', '#e8e1cf'),
        onCross: (p) => (cross.textContent = p ? `${when(p.time)} · ${fmt(p.value)}` : ''),
      });
      if (section.dataset.drawn) drawPoints(range);
      applyScale();
    }));
  const reach = () => {
    section.removeEventListener('pointerover', reach);
    section.removeEventListener('focusin', reach);
    // Offline or blocked: the first frame stays, and still follows the data.
    startLibrary().catch(() => undefined);
  };
  section.addEventListener('pointerover', reach);
  section.addEventListener('focusin', reach);

  function show(status: number, body: Answer<Intraday | Chart | History>, drawing: PriceChartRange) {
    // An answer for a range no longer shown: the one picked since is being fetched, and is drawn when it comes.
    if (drawing !== range) return;
    // A line in USD per troy ounce is drawn at the page's rate: without one (no price ever seen), nothing can be drawn.
    const answered =
      status === 200 && 'points' in body ? atRate(linePoints(body.points, plan.series[drawing].from), plan.series[drawing], section) : null;
    if (!answered) {
      points = [];
      drawPoints(drawing);
      change.textContent = '';
      plot.setAttribute('role', 'status');
      plot.setAttribute('aria-label', t.chartUnavailable);
      cross.textContent = t.chartUnavailable;
      return;
    }
    plot.removeAttribute('role');
    plot.removeAttribute('aria-label');
    points = answered;
    // Placed by time: a hole in the series is a gap (line-frame.ts).
    drawPoints(drawing);
    change.textContent = changeWords(points, drawing, locale, t);
    cross.textContent = points.length < 2 ? fill(t.recording, { n: number(points.length, locale, 0) }) : '';
    section.dataset.drawn = drawing;
  }

  function select(r: PriceChartRange) {
    range = r;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.range === r));
    logButton.hidden = r !== 'max';
    caption.textContent = plan.series[r].label;
    change.textContent = '';
    cross.textContent = '';
    delete section.dataset.drawn;
    applyScale();
  }

  // The recorded 2-minute series grows every 2 minutes; the daily and monthly ones change slower.
  // Polls never overlap, so the range asked last is the one each answer is for.
  let asked = range;
  const refresh = poll<Intraday | Chart | History>(
    () => plan.series[(asked = range)].url,
    () => (range === '1d' ? 120 : 600),
    (status, body) => show(status, body, asked),
  );
  select(range);
  for (const b of buttons)
    b.addEventListener('click', () => {
      select(b.dataset.range as PriceChartRange);
      // The page's address names the range shown, so a shared link opens on it.
      const url = new URL(location.href);
      url.searchParams.set('range', range);
      history.replaceState(history.state, '', url);
      void refresh();
    });
  logButton.addEventListener('click', () => {
    log = !log;
    applyScale();
    // The first frame has no scale to change: the library takes over (a pointer or focus has started it already).
    if (!chart) reach();
  });
}
