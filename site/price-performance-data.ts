import { sessionNow } from '@/lib/calendar/clock';
import { ApiError } from '@/lib/core/errors';
import { metalById, type MetalId } from '@/lib/reference/metals';
import type { Unit } from '@/lib/reference/units';
import type { History, HistoryQuery, HistoryRange } from '@/lib/schemas/history';
import { spotCovers, type DateWindow } from '@/lib/series/coverage';
import { getHistoryFor } from '@/lib/series/history';
import { isMonthlyMetal } from '@/lib/series/monthly';
import { isUnavailable } from '@/lib/sources/unavailable';
import { StoreDownError } from '@/lib/store';
import type { ChartLine } from '@/widgets/chart';
import type { PriceChartRange } from '@/widgets/kinds';
import type { PriceChartPlan } from './price-chart-plan';

// How the price moved over each window and each year (decisions §32), read on the server for a price page: every
// figure is the history endpoint's own (getHistoryFor, its rounding, each point at its own date's rate), over the series
// the page's chart draws for that range (site/price-chart.ts decides it), so the table and the chart say the same.

/** A series history answers, as the chart's lines name them. */
export type MoveSeries = 'spot' | 'futures' | 'monthly';

/** The performance table's windows, as history's `range` names them, shortest first. */
export const MOVE_WINDOWS = ['1w', '1m', '6m', 'ytd', '1y', '5y', '10y', 'max'] as const satisfies readonly HistoryRange[];
export type MoveWindow = (typeof MOVE_WINDOWS)[number];

/** The chart range drawing each window (its days counted back from today as history's are from the latest point). */
const CHART_RANGE: Record<Exclude<MoveWindow, 'ytd'>, PriceChartRange> = {
  '1w': '5d',
  '1m': '1mo',
  '6m': '6mo',
  '1y': '1y',
  '5y': '5y',
  '10y': '10y',
  max: 'max',
};

/** Windows over which a change between two monthly averages says how the price moved (over less, it is mostly the averaging). */
const MONTHLY_ENOUGH: readonly MoveWindow[] = ['1y', '5y', '10y', 'max'];

/** One row of the performance table: history's `period` of one window of one series. */
export interface MoveRow {
  window: MoveWindow;
  /** The series the figures are of; null when none covers the window in the page's currency and unit. */
  series: MoveSeries | null;
  /** Dates of the window's first and last points (the last is the "as of"). */
  from: string | null;
  to: string | null;
  /** The first and last closes, their difference and history's `period.change_pct`; null when unknown. */
  first: number | null;
  last: number | null;
  change: number | null;
  pct: number | null;
  /** The answer was stale (an upstream down: its last real points). */
  stale: boolean;
  /** History gave no answer for the series in the page's currency (no rates for it, or an upstream never seen). */
  failed: boolean;
}

/** One calendar year of the years table: history's yearly bar (`group=year`) of one series. */
export interface YearRow {
  year: number;
  series: MoveSeries;
  /** The bar's first point's date. */
  d: string;
  first: number;
  last: number;
  high: number;
  low: number;
  avg: number;
  /** Against the year before's last close in the same series; null when that series has none. */
  change: number | null;
  pct: number | null;
  /** Trading days (months on the monthly series) in it. */
  count: number;
  /** The year so far: the date of its last point. */
  to: string | null;
  /** A daily year its series does not cover whole (it starts or ends within it, or has a gap). */
  partial: boolean;
  stale: boolean;
}

export interface PriceMoves {
  rows: MoveRow[];
  /** Newest first. */
  years: YearRow[];
}

interface Page {
  metal: MetalId;
  currency: string;
  unit: Unit;
}

/**
 * History's answer for a query in the page's currency and unit; null when it has none (a currency it has no rates for,
 * an upstream never seen, a store not answering): the tables say so, and the page with its price stands.
 */
async function history(page: Page, q: Partial<HistoryQuery>): Promise<History | null> {
  try {
    const h = await getHistoryFor({ symbol: metalById(page.metal).intraday, currency: page.currency.toUpperCase(), unit: page.unit, ...q });
    return isUnavailable(h) ? null : h;
  } catch (err) {
    // An unreachable store has logged its outage once already.
    if (!(err instanceof ApiError) && !(err instanceof StoreDownError))
      console.warn(`[pages] history ${q.series} ${q.range ?? q.group ?? q.date} failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/**
 * The history series behind a line the chart draws over a window. Gold's futures are history's `futures`; another
 * metal's futures are the chart endpoint's bars in USD per troy ounce, which history does not hold: over a year or more
 * the metal's monthly averages stand in (named so), over less no figure is given; "since the start" without a monthly
 * series (palladium) is its longest daily series history holds, its spot bars.
 */
function seriesOf(line: ChartLine, metal: MetalId, window: MoveWindow): MoveSeries | null {
  if (line === 'spot' || line === 'monthly') return line;
  if (line !== 'futures') return null;
  if (metal === 'gold') return 'futures';
  if (window === 'max') return isMonthlyMetal(metal) ? 'monthly' : 'spot';
  return isMonthlyMetal(metal) && MONTHLY_ENOUGH.includes(window) ? 'monthly' : null;
}

/** Each window's series: the chart plan's line for its range; year to date, which the chart has no range for, by the chart's own rule. */
async function windowSeries(page: Page, plan: PriceChartPlan, today: string): Promise<Record<MoveWindow, MoveSeries | null>> {
  const [ytdCovered] = await spotCovers(page.metal, [{ from: `${today.slice(0, 4)}-01-01`, to: today }]);
  return Object.fromEntries(
    MOVE_WINDOWS.map((w) => {
      const line: ChartLine = w === 'ytd' ? (ytdCovered ? 'spot' : 'futures') : plan.series[CHART_RANGE[w]].line;
      return [w, seriesOf(line, page.metal, w)];
    }),
  ) as Record<MoveWindow, MoveSeries | null>;
}

async function rowOf(page: Page, window: MoveWindow, series: MoveSeries | null): Promise<MoveRow> {
  const h = series ? await history(page, { series, range: window }) : null;
  // A change needs two closes: one point (a series that began today) says nothing of how the price moved.
  const p = h && h.period.from !== h.period.to ? h.period : null;
  return {
    window,
    series,
    from: p?.from ?? null,
    to: p?.to ?? null,
    first: p?.first ?? null,
    last: p?.last ?? null,
    change: p?.change ?? null,
    pct: p?.change_pct ?? null,
    stale: h?.data_state.status === 'stale',
    failed: series !== null && h === null,
  };
}

/** The first year the table takes from a daily series where the metal has monthly averages before it (decisions §32). */
const DAILY_FROM = 2000;

const yearWindow = (year: number, today: string): DateWindow => ({
  from: `${year}-01-01`,
  to: String(year) === today.slice(0, 4) ? today : `${year}-12-31`,
});

/**
 * The years: each from a daily series that covers it whole (the spot bars where lib/series/coverage.ts says so, as the
 * chart judges them; else gold's futures, whole from their first full year), else the monthly averages; a year only a
 * daily series has, and only in part, from that series, marked partial. Newest first.
 */
async function yearsOf(page: Page, today: string, latest: (series: MoveSeries) => Promise<string | null>): Promise<YearRow[]> {
  const { metal } = page;
  const [spot, futures, monthly] = await Promise.all([
    history(page, { series: 'spot', group: 'year' }),
    metal === 'gold' ? history(page, { series: 'futures', group: 'year', range: 'max' }) : null,
    isMonthlyMetal(metal) ? history(page, { series: 'monthly', group: 'year' }) : null,
  ]);
  const thisYear = Number(today.slice(0, 4));
  const spotYears = spot?.points ?? [];
  const covered = await spotCovers(
    metal,
    spotYears.map((p) => yearWindow(Number(p.d.slice(0, 4)), today)),
  );
  const rows = new Map<number, YearRow>();
  const put = (h: History, p: History['points'][number], series: MoveSeries, partial: boolean) => {
    const year = Number(p.d.slice(0, 4));
    rows.set(year, {
      year,
      series,
      d: p.d,
      first: p.o ?? p.c!,
      last: p.c!,
      high: p.h ?? p.c!,
      low: p.l ?? p.c!,
      avg: p.avg!,
      change: p.change ?? null,
      pct: p.change_pct ?? null,
      count: p.days ?? p.months ?? 0,
      to: null,
      partial,
      stale: h.data_state.status === 'stale',
    });
  };
  // Weakest first, each overwritten by a better one: a daily year in part, the monthly averages, a daily year whole
  // (since 2000: before it the monthly averages, where the metal has them).
  const daily = (p: History['points'][number]) => !monthly || p.d >= `${DAILY_FROM}`;
  const wholeFutures = (p: History['points'][number]) => p.d <= `${p.d.slice(0, 4)}-01-07`;
  spotYears.forEach((p, i) => !covered[i] && put(spot!, p, 'spot', true));
  for (const p of futures?.points ?? []) if (!wholeFutures(p)) put(futures!, p, 'futures', true);
  for (const p of monthly?.points ?? []) put(monthly!, p, 'monthly', false);
  for (const p of futures?.points ?? []) if (wholeFutures(p) && daily(p)) put(futures!, p, 'futures', false);
  spotYears.forEach((p, i) => covered[i] && daily(p) && put(spot!, p, 'spot', false));
  const current = rows.get(thisYear);
  if (current) current.to = await latest(current.series);
  return [...rows.values()].sort((a, b) => b.year - a.year);
}

/**
 * The performance table's rows and the years table's, in the page's currency and unit, over the series the chart plan
 * draws. Every figure is history's: a row's percent is its `period.change_pct` for the same series and `range`.
 */
export async function loadPriceMoves(page: Page, plan: PriceChartPlan, nowMs = Date.now()): Promise<PriceMoves> {
  const today = sessionNow(nowMs).date;
  const series = await windowSeries(page, plan, today);
  const rows = await Promise.all(MOVE_WINDOWS.map((w) => rowOf(page, w, series[w])));
  // The year so far ends at its series' latest point: a row of that series says it, else one `date=` asks.
  const latest = async (s: MoveSeries) =>
    rows.find((r) => r.series === s && r.to)?.to ?? (await history(page, { series: s, date: today }))?.points[0]?.d ?? null;
  return { rows, years: await yearsOf(page, today, latest) };
}
