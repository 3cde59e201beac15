import { ApiError } from '../core/errors';
import { daysBefore } from '../calendar/dates';
import { perUnit, type Unit } from '../reference/units';
import { todayUtc } from '../schemas/history';
import { fxCurrencies, readFxSeries, type FxReading, type FxSeries } from '../sources/fx-history';
import { idOf, keep, pointsBytes, seriesCache, SLOT_BYTES } from './cache-budget';
import { firstOnOrAfter, roundPoint, type OutPoint, type RawPoint, type SeriesKind } from './history-points';

// Step 2 of a history answer (lib/series/history.ts), convert: the rates of the currency asked, and the series in that
// currency and unit, each point at its own date's rate (decisions §24, §29), made once per version of the series and
// of the rates within the series budget.

/** A currency whose last rate is more than this many days old has ended (the list gives a current one its latest date). */
const ENDED_AFTER_DAYS = 7;

/** The rates of a currency for an answer, and the last date of one that ended (`until`). */
export type Rates = FxReading & { until: string | null };

/** The rates of a currency for an answer: null for USD; a currency without a history is the 400 listing those with one. */
export async function ratesFor(code: string, asked: string): Promise<Rates | null> {
  if (code === 'USD') return null;
  const list = await fxCurrencies.read();
  if (list.value) {
    if (!/^[A-Z]{3}$/.test(code) || !Object.hasOwn(list.value, code)) {
      const valid = [...new Set(['USD', ...Object.keys(list.value)])].sort();
      throw new ApiError(400, `Unsupported currency: ${asked}. Valid values (the currencies with a rate history): ${valid.join(', ')}`, { valid });
    }
    const { from, to } = list.value[code];
    const until = to !== null && to < daysBefore(todayUtc(), ENDED_AFTER_DAYS) ? to : null;
    return { ...(await readFxSeries(code, from)), until };
  }
  // The list has never answered: a code is tried as it is, and what is kept of it answers while the rates are down.
  if (!/^[A-Z]{3}$/.test(code))
    throw new ApiError(400, `Unsupported currency: ${asked}. Valid values: an ISO 4217 code such as EUR`, { valid: ['USD'] });
  return { ...(await readFxSeries(code, null)), until: null };
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

/** A series as the convert step needs it: its key in the budget, its kind, its points as held, and its USD per troy ounce answer. */
export interface Source {
  kind: SeriesKind;
  key: string;
  raw: readonly RawPoint[];
  usd: { points: readonly object[] };
  dates: readonly string[];
}

/** What every answer of one series in one currency and unit shares: the points (unrounded and as answered) and their dates. */
export interface View {
  /** Names the view in the budget's keys. */
  key: string;
  points: OutPoint[];
  raw: readonly RawPoint[];
  dates: readonly string[];
  /** Dates of the points left out for want of a rate within 7 days of them (a gap in the currency's rates), oldest first. */
  leftOut: string[];
}

/** What a view keeps alive: its converted points twice (unrounded and as answered), their dates, the dates left out. */
const viewBytes = (v: View) => pointsBytes(v.points) + pointsBytes(v.raw) + (v.dates.length + v.leftOut.length) * SLOT_BYTES + 1024;

/**
 * A series in a currency and unit: the USD per troy ounce one is the series as held; any other is converted once per
 * version of the series and of the rates (a currency's rates array is new with every new day), within the budget.
 */
export function viewOf(base: Source, fx: FxSeries | null, unit: Unit, until: string | null): View {
  if (!fx && unit === 'oz') {
    const view = {
      key: `${base.key}|USD|oz`,
      points: base.usd.points as OutPoint[],
      raw: base.raw,
      dates: base.dates,
      leftOut: [],
    };
    return keep(view.key, view.points, view);
  }
  const key = `${base.key}|${fx ? idOf(fx.r) : 'USD'}|${unit}|${until ?? ''}`;
  const view = seriesCache().take(
    key,
    (): View => {
      const { points: raw, leftOut } = base.kind === 'monthly' ? convertMonthly(base.raw, fx, unit, until) : convertDaily(base.raw, fx, unit, until);
      const points = raw.map((p) => roundPoint(p, base.kind, unit));
      return {
        key,
        points,
        raw,
        dates: raw.map((p) => p.d),
        leftOut,
      };
    },
    viewBytes,
  );
  return keep(key, view.points, view);
}
