import type { BarsVersion, Store } from './types';

// The London-time values (decisions §30) in the store. Each is one reading on one date, kept as a dated record of
// the store's daily bars (one observation: open = close = the price, `t0` = `t1` = its time), so both backends
// keep them as they keep the daily bars: atomic writes, one read for a whole series, a version that moves with
// every write, trims by date, nothing expiring on its own. One series per metal and time, one record per date;
// the record is written once, by the instance that claims its date (set-if-absent), and never replaced.

/** A value as kept: its London date, USD per troy ounce, and when the service took the reading (ms). */
export interface LondonValue {
  d: string;
  p: number;
  t: number;
}

/** The store's series of one metal's values at one time, e.g. `london:xau:pm`. */
export const londonSeries = (symbol: string, time: string) => `london:${symbol}:${time}`;

/**
 * How long a date's claim is held: far past the 5 minutes in which a reading can be its value, so no instance
 * finds it expired while a reading could still count.
 */
const CLAIM_S = 2 * 86_400;

/**
 * Writes `value` as the series' value of its date unless another write took that date first: true when this one
 * wrote it. A failed write gives the claim back (so the next fresh reading in the window is tried) and throws.
 */
export async function recordLondonValue(store: Store, series: string, value: LondonValue): Promise<boolean> {
  const claim = `claim:${series}:${value.d}`;
  if (!(await store.claim(claim, CLAIM_S))) return false;
  try {
    await store.foldBar(series, value.d, value.t, value.p);
  } catch (err) {
    await store.release(claim).catch(() => {});
    throw err;
  }
  return true;
}

/** Every value of a series, oldest first, with the version they are at (one read). */
export async function londonValues(store: Store, series: string): Promise<{ at: BarsVersion; values: LondonValue[] }> {
  const { at, bars } = await store.allBars(series);
  return { at, values: bars.filter((b) => b.origin === 'recorded').map((b) => ({ d: b.d, p: b.o, t: b.t0 })) };
}
