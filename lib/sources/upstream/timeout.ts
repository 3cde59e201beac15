// The upstream timeout, counted in time the process could have seen the answer. Under a burst the
// event loop can stay busy for longer than the timeout while the upstream's answer already waits in
// the socket: a plain timer (AbortSignal.timeout) then fires first and blames the upstream for the
// process's own backlog. Here a coarse tick counts the time; a tick that comes much later than asked
// counts only a little, because the rest was time the loop was busy elsewhere. On expiry the abort
// waits one more turn of the loop (setImmediate runs after pending I/O), so an answer that arrived
// meanwhile is read first.

/** Tick of the count, ms. */
const STEP_MS = 50;
/** Most a single tick may count, ms: timer jitter, not a blocked loop. */
const MAX_TICK_MS = 2 * STEP_MS;

export interface UpstreamTimeout {
  signal: AbortSignal;
  /** Stops the count (call when the answer has been read or has failed). */
  clear: () => void;
}

export function upstreamTimeout(ms: number): UpstreamTimeout {
  const controller = new AbortController();
  let left = ms;
  let last = performance.now();
  let done = false;
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setTimeout(tick, Math.min(STEP_MS, left));
    timer.unref();
  };
  const tick = () => {
    const now = performance.now();
    left -= Math.min(now - last, MAX_TICK_MS);
    last = now;
    if (left > 0) return arm();
    setImmediate(() => {
      if (!done) controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
    });
  };
  arm();
  return {
    signal: controller.signal,
    clear: () => {
      done = true;
      clearTimeout(timer);
    },
  };
}
