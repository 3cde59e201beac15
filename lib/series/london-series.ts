import { onMarketClock } from '../calendar/clock';
import { daysBefore } from '../calendar/dates';
import { londonClock } from '../calendar/london-business-days';
import { londonTimeOf, type LondonTime } from '../reference/london-times';
import { metalById, type MetalId } from '../reference/metals';
import type { DataState } from '../schemas/common';
import { londonWrites } from '../prices/london-recording';
import { toDataState } from '../sources/data-state';
import { getStore, type BarsVersion } from '../store';
import { londonSeries, londonValues, type LondonValue } from '../store/london-values';

// The London-time values as served (decisions §30; recorded by lib/prices/london-recording.ts): one metal's values at one
// London time, oldest first, as this instance holds them. The store's version is asked for at most once a second
// per series (at once after this process's own write); the values are read again only when it moved. A store
// that fails keeps what is held; with nothing held its error goes to the caller.

/** How long one version read answers for a series, ms. */
const CHECK_MS = 1000;
/** A latest value within this many London days of today keeps the series fresh (a long weekend, Easter). */
const FRESH_DAYS = 5;

/** One metal's values at one London time as this instance holds them, and when it last asked the store about them. */
interface HeldLondonValues {
  at: BarsVersion;
  values: readonly LondonValue[];
  checkedAt: number;
  /** This process's writes when it was read. */
  writes: number;
}
const held = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.londonSeries')] ??= new Map<string, HeldLondonValues>()) as Map<
  string,
  HeldLondonValues
>;

/** What the series is, in words: the `source` of its answers. */
export function londonSource(metal: MetalId, time: LondonTime): string {
  const m = metalById(metal);
  return (
    `London ${londonTimeOf(metal, time)} reference (Europe/London), computed from this service's own ${m.symbol}/USD spot: ` +
    `the first fresh price it took at or after that minute, within 5 minutes, on each London business day it observed`
  );
}

/** A metal's values at a London time, oldest first, and the freshness of the latest. */
export async function londonSeriesOf(
  metal: MetalId,
  time: LondonTime,
  now = Date.now(),
): Promise<{ values: readonly LondonValue[]; data_state: DataState }> {
  const key = londonSeries(metalById(metal).intraday, time);
  let h = held.get(key);
  const writes = londonWrites();
  if (!h || now - h.checkedAt >= CHECK_MS || h.writes !== writes) {
    const store = getStore();
    try {
      const at = h ? await store.barsVersion(key) : null;
      if (!h || !at || at.version !== h.at.version || at.epoch !== h.at.epoch) {
        const read = await londonValues(store, key);
        h = { at: read.at, values: read.values, checkedAt: now, writes };
      } else h = { ...h, checkedAt: now, writes };
      held.set(key, h);
    } catch (err) {
      if (!h) throw err;
    }
  }
  const values = h.values;
  const last = values[values.length - 1];
  if (!last) return { values, data_state: { status: 'unavailable', as_of: null, source: null, age_seconds: null } };
  const today = londonClock(onMarketClock(now)).date;
  const fresh = last.d >= daysBefore(today, FRESH_DAYS);
  return { values, data_state: toDataState({ status: fresh ? 'fresh' : 'stale', asOf: Math.min(last.t, now), source: 'cache' }, now) };
}
