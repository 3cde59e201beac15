import { daysBefore } from '../calendar/dates';
import { round, UNIT_DECIMALS, type Unit } from '../reference/units';
import type { History } from '../schemas/history';
import { keptFor, seriesCache } from './cache-budget';
import type { OutPoint, RawPoint } from './history-points';

// Step 5 of a history answer (lib/series/history.ts), statistics and period: the 52-week statistics of the whole series
// (in the currency and unit asked) and the period of the points answered; kept beside their series and points within
// the series budget.

export type Stats = Pick<History, 'high_52w' | 'low_52w' | 'ranges' | 'return_ytd_pct' | 'return_1y_pct'>;
export type Daily = { d: string; c: number; h: number; l: number };

/** 52-week high/low, trailing ranges and returns, counted back from the latest point; from unrounded points, rounded once on output (`dp` decimals). */
export function historyStats(points: readonly Daily[], dp = 2): Stats {
  const last = points[points.length - 1];
  const span = (days: number) => {
    if (!last) return { low: null, high: null };
    const from = daysBefore(last.d, days);
    const within = points.filter((p) => p.d >= from);
    let low = Infinity;
    let high = -Infinity;
    for (const p of within) {
      low = Math.min(low, p.l);
      high = Math.max(high, p.h);
    }
    return { low: round(low, dp), high: round(high, dp) };
  };
  const pct = (base: Daily | undefined) => (last && base ? round((last.c / base.c - 1) * 100, 2) : null);
  const year = span(365);
  const prevYearEnd = last ? points.filter((p) => p.d < `${last.d.slice(0, 4)}-01-01`).pop() : undefined;
  const yearAgo = last ? points.filter((p) => p.d <= daysBefore(last.d, 365)).pop() : undefined;
  return {
    high_52w: year.high,
    low_52w: year.low,
    ranges: { day: last ? { low: round(last.l, dp), high: round(last.h, dp) } : { low: null, high: null }, week: span(7), month: span(30), year },
    return_ytd_pct: pct(prevYearEnd),
    return_1y_pct: pct(yearAgo),
  };
}

const STAT_KEYS = ['high_52w', 'low_52w', 'ranges', 'return_ytd_pct', 'return_1y_pct'] as const;
export const statsOf = (s: Stats): Stats => Object.fromEntries(STAT_KEYS.map((k) => [k, s[k]])) as Stats;
/** Every point as a daily bar for the statistics: the monthly series has a close alone. */
export const asDaily = (raw: readonly RawPoint[]): Daily[] => raw.map((p) => ({ d: p.d, c: p.c, h: p.h ?? p.c, l: p.l ?? p.c }));

/**
 * The statistics of a series in a currency and unit: those of its USD per troy ounce answer (`usd`) as they are, any
 * other's from its converted points (`raw()`, under `key`), made once within the budget.
 */
export function statsFor(key: string, raw: () => readonly RawPoint[], unit: Unit, usd: Stats | null): Stats {
  if (usd) return statsOf(usd);
  return seriesCache().take(
    `${key}|stats`,
    () => historyStats(asDaily(raw()), UNIT_DECIMALS[unit]),
    () => 1024,
  );
}

/** A point's price as answered: its close, or the london series' price. */
const priceOf = (p: OutPoint): number => (p.c ?? p.p)!;

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

/** The period of the points answered: kept beside a kept list of points, made for a list cut for one request. */
export function periodFor(points: readonly OutPoint[], unit: Unit): Period {
  return (
    keptFor(
      points,
      `period|${unit}`,
      () => periodOf(points, unit),
      () => 512,
    ) ?? periodOf(points, unit)
  );
}
