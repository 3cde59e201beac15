import type { DailyBar } from './types';

// The fold of one observation into a daily bar, as both backends apply it (the KV backend runs the same
// rule in a Lua script). Order-independent: whichever order two instances' updates arrive in, the
// extremes are the true max and min, the open the earliest observation and the close the latest.

/** The bar after folding price `p` observed at `t` (ms) into `bar`; `bar` itself when nothing changes. */
export function fold(bar: DailyBar | null, date: string, t: number, p: number): DailyBar {
  if (!bar || bar.origin !== 'recorded') return { d: date, o: p, h: p, l: p, c: p, n: 1, origin: 'recorded', t0: t, t1: t };
  // The observation behind the open or the close again (folded by another instance) changes nothing.
  if (t === bar.t1 || t === bar.t0) return bar;
  return {
    ...bar,
    h: Math.max(bar.h, p),
    l: Math.min(bar.l, p),
    n: bar.n + 1,
    ...(t < bar.t0 ? { o: p, t0: t } : {}),
    ...(t > bar.t1 ? { c: p, t1: t } : {}),
  };
}

/** A date as a whole number of days since 1970-01-01 (the score of a bar in KV). */
export function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 86_400_000;
}
