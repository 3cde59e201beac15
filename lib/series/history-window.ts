import { daysBefore } from '../calendar/dates';
import type { HistoryQuery, HistoryRange } from '../schemas/history';
import { firstOnOrAfter, lastOnOrBefore, type SeriesKind } from './history-points';

// Step 3 of a history answer (lib/series/history.ts), window: which of a series' points the query asks for, as indexes
// into its dates (the converted series') (decisions §24, §29: `range` or the default counts back from `to` when `to` is given).

const RANGE_DAYS: Record<Exclude<HistoryRange, 'ytd' | 'max'>, number> = {
  '1w': 7,
  '1m': 30,
  '3m': 91,
  '6m': 182,
  '1y': 365,
  '2y': 730,
  '5y': 1826,
  '10y': 3652,
};

/** The first date of `range`, counted back from the latest point (ytd: 1 January of its year; max: none). */
export function historyRangeStart(range: HistoryRange, latest: string): string | undefined {
  if (range === 'max') return undefined;
  return range === 'ytd' ? `${latest.slice(0, 4)}-01-01` : daysBefore(latest, RANGE_DAYS[range]);
}

/** The first date of the window asked (undefined: from the first point), counted from the series' latest date. */
export function windowStart(dates: readonly string[], kind: SeriesKind, q: Partial<HistoryQuery>): string | undefined {
  const latest = dates[dates.length - 1];
  if (!latest) return undefined;
  // Futures reach back to 2000 but answer 5 years unless asked for more; spot and monthly answer all they hold.
  const range = q.range ?? (q.from !== undefined ? undefined : kind === 'futures' ? '5y' : 'max');
  // The window ends at `to` when it is given (before the latest point): `range`, or the default, counts back from it.
  const end = q.to !== undefined && q.to < latest ? q.to : latest;
  return q.from ?? (range ? historyRangeStart(range, end) : undefined);
}

/** A window as indexes into a series' dates: from `i` to before `j`; `named` when no date was given (a range or the default), which many requests share. */
export interface Bounds {
  i: number;
  j: number;
  named: boolean;
}

/** The window a query asks of ascending `dates`. */
export function windowBounds(dates: readonly string[], kind: SeriesKind, q: Partial<HistoryQuery>): Bounds {
  const n = dates.length;
  const from = windowStart(dates, kind, q);
  const i = from ? firstOnOrAfter(dates, from) : 0;
  const j = Math.max(i, q.to ? lastOnOrBefore(dates, q.to) + 1 : n);
  return { i, j, named: q.from === undefined && q.to === undefined };
}

/** How many of `leftOut` (dates left out for want of a recent rate, ascending) lie within the window asked of `dates`. */
export function leftOutIn(leftOut: readonly string[], dates: readonly string[], kind: SeriesKind, q: Partial<HistoryQuery>): number {
  if (leftOut.length === 0) return 0;
  const from = windowStart(dates, kind, q);
  const i = from ? firstOnOrAfter(leftOut, from) : 0;
  const j = q.to ? lastOnOrBefore(leftOut, q.to) + 1 : leftOut.length;
  return Math.max(0, j - i);
}
