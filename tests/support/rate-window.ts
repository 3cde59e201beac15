import { sleep } from './expect';

/**
 * Waits, if need be, for a clock-aligned window of `windowS` seconds with at least `needS` of it left (by
 * default a whole one, from its start); the check says whether that window still runs.
 */
export async function windowStart(windowS: number, needS = windowS): Promise<() => boolean> {
  const ms = windowS * 1000;
  const left = ms - (Date.now() % ms);
  if (left < needS * 1000) await sleep(left + 50);
  const index = Math.floor(Date.now() / ms);
  return () => Math.floor(Date.now() / ms) === index;
}

/**
 * Runs a rate-limit scenario once per window length until its burst fits into one window.
 * The /mcp limiter's windows are aligned to the clock this process shares with the app
 * (lib/mcp/rate-limit.ts), so whether a burst stayed inside one window is known for certain, not
 * guessed from a timing. `attempt` starts its app(s) with the given window, calls `windowStart`,
 * sends its burst and answers 'crossed' if the window ended before the burst's last answer: a
 * loaded machine, which says nothing about the limiter, so the next, longer window is tried.
 * Crossing the last length fails.
 */
export async function inOneRateWindow(windowsS: readonly number[], attempt: (windowS: number) => Promise<'crossed' | 'done'>): Promise<void> {
  for (const [i, win] of windowsS.entries()) {
    if ((await attempt(win)) === 'done') return;
    if (i === windowsS.length - 1) throw new Error(`the burst did not fit into one ${win} s window even on the last try`);
    console.warn(`[test] a burst crossed a ${win} s rate window on a loaded machine; trying ${windowsS[i + 1]} s`);
  }
}
