import { ApiError } from '../core/errors';
import type { DataState } from '../schemas/common';
import type { History, HistoryGroup, HistoryQuery } from '../schemas/history';
import { isUnavailable, NOTHING, unavailable, type Unavailable } from '../sources/unavailable';
import { metalById, type MetalId } from '../reference/metals';
import { FX_HISTORY_API_NAME } from '../sources/upstream/fx-history';
import { historyBody } from './history-body';
import { ratesFor, viewOf } from './history-convert';
import { cutPoints } from './history-group';
import { lastOnOrBefore, type OutPoint } from './history-points';
import { baseFor } from './history-series';
import { periodFor, periodOf, statsFor, type Period } from './history-stats';
import { leftOutIn, windowBounds } from './history-window';

export { historyJsonParts } from './history-body';
export { historyState } from './history-series';

// GET /api/v1/history (decisions §24, §29) as a pipeline, one module per step, called in order here:
// 1. which series (history-series.ts): the futures, a metal's spot bars, monthly averages or London-time values, as held;
// 2. convert (history-convert.ts): the series in the currency and unit asked, each point at its own date's rate;
// 3. window (history-window.ts): the points asked, as indexes into the converted series' dates (a currency's first and
//    last rates bound them, and a range counts back from its last point);
// 4. group (history-group.ts): the window's points, as weekly, monthly or yearly bars when asked;
// 5. statistics and period (history-stats.ts): of the whole series, and of the points answered;
// 6. body (history-body.ts): the answer and its JSON.
// The shapes they pass on are history-points.ts. What the steps keep is kept within one byte budget
// (cache-budget.ts, `SERIES_CACHE_MB`): what it lets go is made again, the same, when next asked for.

/**
 * The bars a query's points are grouped into: none with `date=`, nor `month` on the monthly series, whose points are
 * months already.
 */
export function historyGroupOf(query: Partial<Pick<HistoryQuery, 'series' | 'group' | 'date'>>): HistoryGroup | undefined {
  if (query.date || !query.group || (query.series === 'monthly' && query.group === 'month')) return undefined;
  return query.group;
}

/**
 * The history answer for a query (decisions §24): the futures series (default), a metal's spot bars or its monthly
 * averages, in the currency and unit asked, within the window asked (or the one point of `date`), with the
 * statistics of the whole series and the period of the points answered.
 */
export async function getHistoryFor(query: Partial<HistoryQuery>): Promise<History | Unavailable> {
  const now = Date.now();
  const code = (query.currency ?? 'USD').toUpperCase();
  const unit = query.unit ?? 'oz';
  // 1. Which series, and the rates of the currency asked (both fetched at once).
  const [base, rates] = await Promise.all([baseFor(query, now), ratesFor(code, query.currency ?? 'USD')]);
  if (isUnavailable(base)) return base;
  if (rates && !rates.series) {
    return unavailable(
      `History in ${code} unavailable: the historical exchange rates (${FX_HISTORY_API_NAME}) are not answering (${rates.error ?? 'no answer'}) and none have been kept for ${code} yet. Retry shortly, or ask in USD.`,
      NOTHING,
      now,
    );
  }
  const fx = rates?.series ?? null;
  const until = rates?.until ?? null;
  // 2. Convert.
  const view = viewOf(base, fx, unit, until);
  // Rates that could not be brought up to date make the converted answer stale, never wrong: each point keeps its own date's rate.
  const data_state: DataState =
    rates?.status === 'stale' && base.data_state.status === 'fresh' ? { ...base.data_state, status: 'stale' } : base.data_state;
  const group = historyGroupOf(query);
  let points: OutPoint[];
  let period: Period;
  if (query.date) {
    // 3. The one point of `date`.
    const k = lastOnOrBefore(view.dates, query.date);
    if (k < 0) {
      const starts = view.dates[0] ? `; the series${fx ? ` in ${code}` : ''} starts ${view.dates[0]}` : '';
      throw new ApiError(404, `No ${base.kind} point on or before ${query.date}${starts}`, { data_state });
    }
    points = [view.points[k]];
    period = periodOf(points, unit);
  } else {
    // 3. Window, 4. group, 5. its period.
    points = cutPoints(view, base.kind, unit, windowBounds(view.dates, base.kind, query), group);
    period = periodFor(points, unit);
  }
  // 5. The statistics of the whole series, 6. the body.
  return historyBody({
    kind: base.kind,
    usd: base.usd,
    extra: base.extra,
    points,
    stats: statsFor(view.key, () => view.rawOf(0, view.dates.length), unit, !fx && unit === 'oz' ? base.usd : null),
    period,
    group,
    requestedDate: query.date,
    code,
    unit,
    fx: fx ? { series: fx, until, leftOut: query.date ? 0 : leftOutIn(view.leftOut, view.dates, base.kind, query) } : null,
    data_state,
    now,
  });
}

/** The daily spot series of a metal in USD per troy ounce: every bar kept (recorded and imported), oldest first, with the statistics of the futures series. */
export async function getSpotHistory(metal: MetalId = 'gold'): Promise<History> {
  return (await getHistoryFor({ series: 'spot', symbol: metalById(metal).intraday })) as History;
}
