// Tests that record samples need the market open whatever the real date: MARKET_CLOCK_OFFSET_S shifts
// the service's market calendar so that "now" reads as a moment of an ordinary trading day (or of a
// weekend), with hours of the same state ahead.

/** Seconds from now to `instant` (ms), in whole minutes so `next_change` stays on the minute. */
export function marketClockAt(instant: number): Record<string, string> {
  return { MARKET_CLOCK_OFFSET_S: String(Math.round((instant - Date.now()) / 60_000) * 60) };
}

/** Wednesday 18 November 2026, 09:00 New York time: open for the next eight hours. */
export const OPEN_DAY = Date.parse('2026-11-18T09:00:00-05:00');
/** Saturday 21 November 2026, 09:00 New York time: closed, reopening Sunday 18:00. */
export const WEEKEND_DAY = Date.parse('2026-11-21T09:00:00-05:00');
