import { metrics } from '../core/metrics.mjs';
import { onMarketClock } from '../calendar/clock';
import { isLondonBusinessDay, londonClock, minuteOf } from '../calendar/london-business-days';
import { LONDON_WINDOW_MIN, londonTimesOf, londonTimeOf, type LondonTime } from '../reference/london-times';
import { daysBefore } from '../calendar/dates';
import { metalById, METALS, type MetalId } from '../reference/metals';
import type { Reading } from '../sources/freshness';
import { getStore, StoreDownError } from '../store';
import { londonSeries, recordLondonValue } from '../store/london-values';
import { retentionStart } from './bars';

// The London-time values, recorded (decisions §30): on each London business day, each metal's price at its London
// times (lib/reference/london-times.ts) is the first fresh reading the service takes at or after that minute,
// within LONDON_WINDOW_MIN minutes; a day with none has no value for that time, and nothing is filled in later.
// Whichever takes the reading records it: the sampler, the cron route, a request (every served price comes through
// lib/prices/served-price.ts, as the daily bars' folds do). Membership is decided from the reading's own time
// (`fetchedAt`) on the service's calendar clock (MARKET_CLOCK_OFFSET_S shifts it), never from when it is served.
// Once per metal, time and date across instances: a claim in the store (lib/store/london-values.ts). The write finishes
// before the answer or is handed to the platform with the bar's (decisions §20); a failed one gives its claim
// back, so the next fresh reading in the window is recorded instead. Kept 10 years, as the bars.

/** The London time and date a reading taken at `fetchedAt` (ms) is the candidate value of, or null. */
export function londonSlot(metal: MetalId, fetchedAt: number): { time: LondonTime; date: string } | null {
  const { date, minute } = londonClock(onMarketClock(fetchedAt));
  if (!isLondonBusinessDay(date)) return null;
  for (const time of londonTimesOf(metal)) {
    const start = minuteOf(londonTimeOf(metal, time)!);
    if (minute >= start && minute < start + LONDON_WINDOW_MIN) return { time, date };
  }
  return null;
}

/** Every metal's London times, as minutes of the day, in order. */
const MINUTES = [...new Set(METALS.flatMap((m) => londonTimesOf(m.id).map((t) => minuteOf(londonTimeOf(m.id, t)!))))].sort((a, b) => a - b);

/** The instant (ms) at which London's wall clock reads `minute` on `date` (London is on UTC or one hour ahead of it). */
function londonInstant(date: string, minute: number): number {
  const utc = Date.parse(`${date}T00:00:00Z`) + minute * 60_000;
  for (const ahead of [0, 3_600_000]) {
    const c = londonClock(utc - ahead);
    if (c.date === date && c.minute === minute) return utc - ahead;
  }
  return utc;
}

/**
 * When the next London time of any metal begins after `nowMs` (both on the real clock; the schedule itself runs on the
 * service's calendar clock): the self-hosted sampler takes a reading then, so a value is taken at its minute rather
 * than up to a sampling interval after it.
 */
export function nextLondonTime(nowMs: number): number {
  const shifted = onMarketClock(nowMs);
  let { date } = londonClock(shifted);
  // The longest run of days without a business day is Easter's four, or Christmas's.
  for (let i = 0; i < 10; i++, date = daysBefore(date, -1)) {
    if (!isLondonBusinessDay(date)) continue;
    for (const minute of MINUTES) {
      const at = londonInstant(date, minute);
      if (at > shifted) return at - (shifted - nowMs);
    }
  }
  return nowMs + 86_400_000;
}

// Shared by every copy of this module in the process (the boot hook and the routes are bundled apart).
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.london')] ??= {
  seen: new Map<MetalId, number>(),
  done: new Map<string, string>(),
  running: new Map<string, Promise<void>>(),
  trimmedFor: new Map<string, string>(),
  writes: 0,
}) as {
  /** Per metal, the last observation (ms) looked at. */
  seen: Map<MetalId, number>;
  /** Per series, the last date whose value is in the store (written here or by another instance). */
  done: Map<string, string>;
  /** Per series and date, the write under way, shared by every request serving a reading of that window. */
  running: Map<string, Promise<void>>;
  trimmedFor: Map<string, string>;
  /** Values this process wrote: a reader holding a series reads again when it moved. */
  writes: number;
};

/** How many values this process has written so far (lib/series/london-series.ts reads again when it moves). */
export const londonWrites = () => state.writes;

/**
 * Records a served reading as its metal's value at a London time when it is fresh, was taken within that time's
 * window on a London business day, and no value of that date is kept yet. Returns the write, which never rejects
 * (a failure is logged and leaves the date open), or null when there is nothing to write. The caller keeps the
 * write alive past its answer (decisions §20).
 */
export function recordLondon(metal: MetalId, reading: Reading<number>): Promise<void> | null {
  const t = reading.fetchedAt;
  const p = reading.value;
  if (reading.status !== 'fresh' || p === null || t === null || state.seen.get(metal) === t) return null;
  const slot = londonSlot(metal, t);
  if (!slot) {
    state.seen.set(metal, t);
    return null;
  }
  const series = londonSeries(metalById(metal).intraday, slot.time);
  if (state.done.get(series) === slot.date) return null;
  const key = `${series}|${slot.date}`;
  // A reading of the same window is being written: this one waits for it, and is tried only if that one failed.
  const running = state.running.get(key);
  if (running) return running;
  state.seen.set(metal, t);
  const write = recordLondonValue(getStore(), series, { d: slot.date, p, t })
    .then(
      async (wrote) => {
        if (wrote) {
          state.writes++;
          metrics().recordWrites.inc({ what: 'london_value', result: 'ok' });
        }
        state.done.set(series, slot.date);
        await trimOnce(series, slot.date);
      },
      (err) => {
        metrics().recordWrites.inc({ what: 'london_value', result: 'failed' });
        // The date stays open: the next fresh reading of the window is written instead.
        state.seen.delete(metal);
        if (!(err instanceof StoreDownError))
          console.warn(`[store] London value ${series} ${slot.date} failed: ${err instanceof Error ? err.message : String(err)}`);
      },
    )
    .finally(() => state.running.delete(key));
  state.running.set(key, write);
  return write;
}

/** Values older than the retention go, once per date per process. */
async function trimOnce(series: string, date: string): Promise<void> {
  if (state.trimmedFor.get(series) === date) return;
  await getStore()
    .trimBars(series, retentionStart(date))
    .then(() => state.trimmedFor.set(series, date))
    .catch(() => {});
}
