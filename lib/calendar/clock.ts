import { config } from '../core/config';
import { marketState, openSecondsBetween, sessionAt, type MarketState, type Session } from './market';

// The market calendar as the service applies it. Tests can shift the calendar's clock
// (MARKET_CLOCK_OFFSET_S) to run on a weekday or a weekend whatever the real date.

const offsetMs = () => config.marketClockOffsetS() * 1000;

export function marketNow(nowMs = Date.now()): MarketState {
  const shift = offsetMs();
  if (!shift) return marketState(nowMs);
  const s = marketState(nowMs + shift);
  return { ...s, next_change: new Date(Date.parse(s.next_change) - shift).toISOString() };
}

export function openSecondsSince(fromMs: number, nowMs = Date.now()): number {
  const shift = offsetMs();
  return openSecondsBetween(fromMs + shift, nowMs + shift);
}

// Sessions change only on a whole minute (17:00 and 18:00 New York): one answer serves every request of a minute.
let lastSession: { minute: number; session: Session } | null = null;

/** The trading session of this moment (while closed, the last one that closed), on the service's calendar clock. */
export function sessionNow(nowMs = Date.now()): Session {
  const at = nowMs + offsetMs();
  const minute = Math.floor(at / 60_000);
  if (lastSession?.minute !== minute) lastSession = { minute, session: sessionAt(at) };
  return lastSession.session;
}

/** An instant as the service's calendar clock reads it (shifted by MARKET_CLOCK_OFFSET_S): the London times' schedule runs on it too. */
export function onMarketClock(nowMs: number): number {
  return nowMs + offsetMs();
}
