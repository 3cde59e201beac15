import { daysBefore } from '../calendar/dates';
import { round, UNIT_DECIMALS, type Unit } from '../reference/units';

// The points every step of a history answer passes on (lib/series/history.ts): as a step computes them (unrounded, in the
// answer's currency and unit) and as answered (rounded, the fields of their series), and the search of a date in them.

/** A point before rounding, in the answer's currency and unit (USD per troy ounce before conversion). */
export interface RawPoint {
  d: string;
  o?: number;
  c: number;
  h?: number;
  l?: number;
  origin?: 'recorded' | 'imported';
  final?: boolean;
  n?: number | null;
  /** Units of the currency per USD applied (converted points only). */
  fx?: number;
  /** The date of that rate, when it is not the point's own. */
  fx_d?: string;
  /** Points in a grouped bar (answered as `months` on the monthly series). */
  days?: number;
  /** A yearly bar: the average of its points' closes. */
  avg?: number;
  /** A yearly bar: its close against the year before's, already from rounded values (null without a point in that year). */
  change?: number | null;
  change_pct?: number | null;
  /** London series: when the reading was taken, ISO 8601. */
  t?: string;
}

/** A point as answered: rounded, only the fields its series has (the london series names its price `p`, not `c`). */
export type OutPoint = Omit<RawPoint, 'c'> & { c?: number; p?: number; months?: number };

/**
 * How a series' points are written: futures `{d, c, h, l}`, spot `{d, o, c, h, l, origin, final, n}`, monthly `{d, c}`,
 * london `{d, p, t}`.
 */
export type SeriesKind = 'futures' | 'spot' | 'monthly' | 'london';

/** The index of the last date on or before `date` in an ascending list, -1 when every date is after it. */
export function lastOnOrBefore(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid] <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The index of the first date on or after `date`, `dates.length` when none is. */
export function firstOnOrAfter(dates: readonly string[], date: string): number {
  return lastOnOrBefore(dates, daysBefore(date, 1)) + 1;
}

/** A point as answered, rounded to the unit's decimals, in the field order of its series. */
export function roundPoint(p: RawPoint, kind: SeriesKind, unit: Unit, grouped = false): OutPoint {
  const dp = UNIT_DECIMALS[unit];
  // Built field by field: the order of a point's fields is the order of its JSON.
  const q = { d: p.d } as OutPoint;
  if (kind === 'london' && !grouped) {
    q.p = round(p.c, dp);
    q.t = p.t;
    if (p.fx !== undefined) q.fx = p.fx;
    if (p.fx_d !== undefined) q.fx_d = p.fx_d;
    return q;
  }
  if (p.o !== undefined && (kind === 'spot' || grouped)) q.o = round(p.o, dp);
  q.c = round(p.c, dp);
  if (p.h !== undefined) q.h = round(p.h, dp);
  if (p.l !== undefined) q.l = round(p.l, dp);
  if (kind === 'spot' && !grouped) {
    q.origin = p.origin;
    q.final = p.final;
    q.n = p.n;
  }
  if (p.avg !== undefined) q.avg = round(p.avg, dp);
  // A month of the monthly series is a point: its years count months.
  if (p.days !== undefined) q[kind === 'monthly' ? 'months' : 'days'] = p.days;
  if (p.change !== undefined) q.change = p.change;
  if (p.change_pct !== undefined) q.change_pct = p.change_pct;
  if (p.fx !== undefined) q.fx = p.fx;
  if (p.fx_d !== undefined) q.fx_d = p.fx_d;
  return q;
}
