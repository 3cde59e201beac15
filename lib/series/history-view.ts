import { daysBefore } from '../calendar/dates';
import type { FxSeries } from '../sources/fx-history';
import { perUnit, round, UNIT_DECIMALS, type Unit } from '../reference/units';

// The arithmetic of a history answer (decisions §24), apart from where the series come from: each point converted
// at its own date's rate, a window cut by dates, daily points grouped into weekly or monthly bars, and the
// period's change. Pure functions over arrays computed once per series version, currency and unit.

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
  /** Trading days in a grouped bar. */
  days?: number;
  /** London series: when the reading was taken, ISO 8601. */
  t?: string;
}

/** A point as answered: rounded, only the fields its series has (the london series names its price `p`, not `c`). */
export type OutPoint = Omit<RawPoint, 'c'> & { c?: number; p?: number };

/**
 * How a series' points are written: futures `{d, c, h, l}`, spot `{d, o, c, h, l, origin, final, n}`, monthly `{d, c}`,
 * london `{d, p, t}`.
 */
export type SeriesKind = 'futures' | 'spot' | 'monthly' | 'london';

/** A point's price as answered: its close, or the london series' price. */
const priceOf = (p: OutPoint): number => (p.c ?? p.p)!;

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

/** No point is converted at a rate more than this many days older than the point (decisions §29): a gap in a currency's rates leaves its points out. */
export const MAX_RATE_AGE_DAYS = 7;

/** Points converted, and the dates of those left out for want of a rate recent enough (oldest first). */
export interface Converted {
  points: RawPoint[];
  leftOut: string[];
}

/**
 * Daily points converted: each at the last rate published on or before its date (`fx_d` when that rate's date is
 * not the point's), points before the currency's first rate left out, and after `until` (the last rate of a currency
 * that ended); a point whose rate is more than 7 days older than it is left out too, its date in `leftOut`. `unit`
 * per spot (lib/reference/units.ts).
 */
export function convertDaily(points: readonly RawPoint[], fx: FxSeries | null, unit: Unit, until: string | null = null): Converted {
  const out: RawPoint[] = [];
  const leftOut: string[] = [];
  let i = -1;
  for (const p of points) {
    if (!fx) {
      out.push(scaled(p, 1, unit));
      continue;
    }
    if (until !== null && p.d > until) break;
    // Both lists ascend: the rate index only moves forward.
    while (i + 1 < fx.d.length && fx.d[i + 1] <= p.d) i++;
    if (i < 0) continue;
    if (fx.d[i] < daysBefore(p.d, MAX_RATE_AGE_DAYS)) {
      leftOut.push(p.d);
      continue;
    }
    const q = scaled(p, fx.r[i], unit);
    q.fx = fx.r[i];
    if (fx.d[i] !== p.d) q.fx_d = fx.d[i];
    out.push(q);
  }
  return { points: out, leftOut };
}

/**
 * Monthly averages converted at the average of that month's daily rates; months before the first rate, after
 * `until`, and months in which no rate was published (a gap of four weeks or more) are left out, the last in `leftOut`.
 */
export function convertMonthly(points: readonly RawPoint[], fx: FxSeries | null, unit: Unit, until: string | null = null): Converted {
  if (!fx) return { points: points.map((p) => scaled(p, 1, unit)), leftOut: [] };
  const out: RawPoint[] = [];
  const leftOut: string[] = [];
  for (const p of points) {
    if (until !== null && p.d > until) break;
    const month = p.d.slice(0, 7);
    const start = firstOnOrAfter(fx.d, `${month}-01`);
    let sum = 0;
    let n = 0;
    for (let k = start; k < fx.d.length && fx.d[k].startsWith(month); k++) {
      sum += fx.r[k];
      n++;
    }
    if (n > 0) out.push({ ...scaled(p, sum / n, unit), fx: sum / n });
    else if (start > 0) leftOut.push(p.d);
  }
  return { points: out, leftOut };
}

function scaled(p: RawPoint, rate: number, unit: Unit): RawPoint {
  const f = (v: number) => perUnit(v * rate, unit);
  const q: RawPoint = { ...p, c: f(p.c) };
  if (p.o !== undefined) q.o = f(p.o);
  if (p.h !== undefined) q.h = f(p.h);
  if (p.l !== undefined) q.l = f(p.l);
  return q;
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
  if (p.days !== undefined) q.days = p.days;
  if (p.fx !== undefined) q.fx = p.fx;
  if (p.fx_d !== undefined) q.fx_d = p.fx_d;
  return q;
}

/** Monday of the ISO week of `date`. */
function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return daysBefore(date, (day + 6) % 7);
}

/**
 * Daily points grouped into bars per ISO week or calendar month: open the first point's (its close where the series
 * has no open), high the highest, low the lowest, close the last, `d` the first trading day, `days` how many there
 * were; a converted bar carries the rate of its close and that rate's date.
 */
export function groupPoints(points: readonly RawPoint[], by: 'week' | 'month'): RawPoint[] {
  const keyOf = by === 'week' ? isoWeek : (d: string) => d.slice(0, 7);
  const out: RawPoint[] = [];
  let key = '';
  let bar: RawPoint | null = null;
  for (const p of points) {
    const k = keyOf(p.d);
    const h = p.h ?? p.c;
    const l = p.l ?? p.c;
    if (!bar || k !== key) {
      key = k;
      bar = { d: p.d, o: p.o ?? p.c, c: p.c, h, l, days: 0 };
      out.push(bar);
    }
    bar.c = p.c;
    bar.h = Math.max(bar.h!, h);
    bar.l = Math.min(bar.l!, l);
    bar.days!++;
    if (p.fx !== undefined) {
      bar.fx = p.fx;
      const rateDate = p.fx_d ?? p.d;
      if (rateDate !== bar.d) bar.fx_d = rateDate;
      else delete bar.fx_d;
    }
  }
  return out;
}

export interface Period {
  from: string | null;
  to: string | null;
  first: number | null;
  last: number | null;
  change: number | null;
  change_pct: number | null;
  high: number | null;
  low: number | null;
}

/**
 * The move over the points answered, from their rounded values so the figures add up: `change` = last − first,
 * `change_pct` = (last ÷ first − 1) × 100, high and low the extremes of the points' highs and lows (closes where
 * a series has none).
 */
export function periodOf(points: readonly OutPoint[], unit: Unit): Period {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return { from: null, to: null, first: null, last: null, change: null, change_pct: null, high: null, low: null };
  let high = -Infinity;
  let low = Infinity;
  for (const p of points) {
    high = Math.max(high, p.h ?? priceOf(p));
    low = Math.min(low, p.l ?? priceOf(p));
  }
  return {
    from: first.d,
    to: last.d,
    first: priceOf(first),
    last: priceOf(last),
    change: round(priceOf(last) - priceOf(first), UNIT_DECIMALS[unit]),
    change_pct: round((priceOf(last) / priceOf(first) - 1) * 100, 2),
    high,
    low,
  };
}
