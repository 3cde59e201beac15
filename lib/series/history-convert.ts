import { ApiError } from '../core/errors';
import { daysBefore } from '../calendar/dates';
import { exactPriceIn } from '../prices/price-in';
import type { Unit } from '../reference/units';
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
 * Which points a conversion keeps and at what rate, as columns of numbers rather than a converted copy of each point
 * (16 bytes a point instead of ~180): `at` the index of each point kept in the series as held, `r` its rate, `rd` the
 * index in the rates of that rate's date (daily series).
 */
export interface Picks {
  at: Int32Array;
  r: Float64Array;
  rd: Int32Array | null;
  leftOut: string[];
}

/**
 * Daily points converted: each at the last rate published on or before its date (`fx_d` when that rate's date is
 * not the point's), points before the currency's first rate left out, and after `until` (the last rate of a currency
 * that ended); a point whose rate is more than 7 days older than it is left out too, its date in `leftOut`. `unit`
 * per spot (lib/reference/units.ts).
 */
export function convertDaily(points: readonly RawPoint[], fx: FxSeries | null, unit: Unit, until: string | null = null): Converted {
  const picks = pickDaily(points, fx, until);
  return { points: pointsOf(points, picks, fx, unit, 0, picks.at.length), leftOut: picks.leftOut };
}

/**
 * Monthly averages converted at the average of that month's daily rates; months before the first rate, after
 * `until`, and months in which no rate was published (a gap of four weeks or more) are left out, the last in `leftOut`.
 */
export function convertMonthly(points: readonly RawPoint[], fx: FxSeries | null, unit: Unit, until: string | null = null): Converted {
  const picks = pickMonthly(points, fx, until);
  return { points: pointsOf(points, picks, fx, unit, 0, picks.at.length), leftOut: picks.leftOut };
}

/** The picks of a conversion, trimmed to the `n` points kept. */
function picksOf(at: Int32Array, r: Float64Array, rd: Int32Array | null, n: number, leftOut: string[]): Picks {
  return { at: at.slice(0, n), r: r.slice(0, n), rd: rd ? rd.slice(0, n) : null, leftOut };
}

/** Every point at rate 1: USD per troy ounce in another unit. */
function picksUnconverted(points: readonly RawPoint[]): Picks {
  const at = new Int32Array(points.length);
  for (let k = 0; k < at.length; k++) at[k] = k;
  return { at, r: new Float64Array(points.length).fill(1), rd: null, leftOut: [] };
}

function pickDaily(points: readonly RawPoint[], fx: FxSeries | null, until: string | null): Picks {
  if (!fx) return picksUnconverted(points);
  const at = new Int32Array(points.length);
  const r = new Float64Array(points.length);
  const rd = new Int32Array(points.length);
  const leftOut: string[] = [];
  let n = 0;
  let i = -1;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    if (until !== null && p.d > until) break;
    // Both lists ascend: the rate index only moves forward.
    while (i + 1 < fx.d.length && fx.d[i + 1] <= p.d) i++;
    if (i < 0) continue;
    if (fx.d[i] < daysBefore(p.d, MAX_RATE_AGE_DAYS)) {
      leftOut.push(p.d);
      continue;
    }
    at[n] = k;
    r[n] = fx.r[i];
    rd[n++] = i;
  }
  return picksOf(at, r, rd, n, leftOut);
}

function pickMonthly(points: readonly RawPoint[], fx: FxSeries | null, until: string | null): Picks {
  if (!fx) return picksUnconverted(points);
  const at = new Int32Array(points.length);
  const r = new Float64Array(points.length);
  const leftOut: string[] = [];
  let n = 0;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    if (until !== null && p.d > until) break;
    const month = p.d.slice(0, 7);
    const start = firstOnOrAfter(fx.d, `${month}-01`);
    let sum = 0;
    let days = 0;
    for (let m = start; m < fx.d.length && fx.d[m].startsWith(month); m++) {
      sum += fx.r[m];
      days++;
    }
    if (days > 0) {
      at[n] = k;
      r[n++] = sum / days;
    } else if (start > 0) leftOut.push(p.d);
  }
  return picksOf(at, r, null, n, leftOut);
}

/** The converted points from `i` to before `j` of a conversion's picks (`fx` null: none converted), made afresh (each the same every time). */
function pointsOf(held: readonly RawPoint[], picks: Picks, fx: FxSeries | null, unit: Unit, i: number, j: number): RawPoint[] {
  const out: RawPoint[] = new Array(Math.max(0, j - i));
  for (let k = i; k < j; k++) {
    const p = held[picks.at[k]];
    const q = scaled(p, picks.r[k], unit);
    if (fx) {
      q.fx = picks.r[k];
      const rateDate = picks.rd ? fx.d[picks.rd[k]] : p.d;
      if (rateDate !== p.d) q.fx_d = rateDate;
    }
    out[k - i] = q;
  }
  return out;
}

function scaled(p: RawPoint, rate: number, unit: Unit): RawPoint {
  const f = (v: number) => exactPriceIn(v, rate, unit);
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

/** What every answer of one series in one currency and unit shares: the points as answered, their dates, and the unrounded ones on demand. */
export interface View {
  /** Names the view in the budget's keys. */
  key: string;
  points: OutPoint[];
  /** The unrounded points from `i` to before `j` (grouping and statistics start from them), made from the picks when converted. */
  rawOf(i: number, j: number): readonly RawPoint[];
  dates: readonly string[];
  /** Dates of the points left out for want of a rate within 7 days of them (a gap in the currency's rates), oldest first. */
  leftOut: string[];
}

/**
 * What a view keeps alive: its points as answered, their dates, the dates left out, and its picks (16 bytes a point).
 * Measured (a view of the futures in EUR, each unit; heapUsed and arrayBuffers after a full GC): 180 bytes of heap and 16
 * of buffers a point; charged 180 a point for those fields.
 */
const viewBytes = (v: View) => pointsBytes(v.points) + (v.dates.length + v.leftOut.length) * SLOT_BYTES + v.dates.length * 16 + 1024;

/**
 * A series in a currency and unit: the USD per troy ounce one is the series as held; any other is converted once per
 * version of the series and of the rates (a currency's rates array is new with every new day), within the budget.
 */
export function viewOf(base: Source, fx: FxSeries | null, unit: Unit, until: string | null): View {
  if (!fx && unit === 'oz') {
    const view = {
      key: `${base.key}|USD|oz`,
      points: base.usd.points as OutPoint[],
      rawOf: (i: number, j: number) => base.raw.slice(i, j),
      dates: base.dates,
      leftOut: [],
    };
    return keep(view.key, view.points, view);
  }
  const key = `${base.key}|${fx ? idOf(fx.r) : 'USD'}|${unit}|${until ?? ''}`;
  const view = seriesCache().take(
    key,
    (): View => {
      const held = base.raw;
      const picks = base.kind === 'monthly' ? pickMonthly(held, fx, until) : pickDaily(held, fx, until);
      const rawOf = (i: number, j: number) => pointsOf(held, picks, fx, unit, i, j);
      // Rounded in slices: the unrounded points of the whole series are never all alive at once.
      const n = picks.at.length;
      const points: OutPoint[] = new Array(n);
      for (let i = 0; i < n; i += 512) {
        const raw = rawOf(i, Math.min(n, i + 512));
        for (let k = 0; k < raw.length; k++) points[i + k] = roundPoint(raw[k], base.kind, unit);
      }
      return { key, points, rawOf, dates: Array.from(picks.at, (k) => held[k].d), leftOut: picks.leftOut };
    },
    viewBytes,
  );
  return keep(key, view.points, view);
}
