import { ttlMs } from '../core/config';
import { getStore, safely } from '../store';
import { attempting, UpstreamError } from './upstream/fetch';
// Installs the writer that keeps every upstream attempt in the store, wherever feeds are read.
import './outcomes';

// The freshness layer: one Feed per upstream value. A read within the TTL is served from memory
// (or from the store, which other instances and earlier processes share); a miss makes exactly one
// upstream call however many requests wait on it (single-flight); a failed or implausible fetch
// falls back to the last known real value, kept in the store so restarts and new instances have it.

/** A value as it came from an upstream: `asOf` is the upstream's own timestamp, `fetchedAt` ours (ms). */
export interface Sourced<T> {
  value: T;
  asOf: number;
  fetchedAt: number;
}

export type Status = 'fresh' | 'stale' | 'unavailable';
export type Source = 'upstream' | 'cache' | 'snapshot';

export interface Reading<T> {
  status: Status;
  value: T | null;
  /** Upstream timestamp of the value (ms), null when unavailable. */
  asOf: number | null;
  source: Source | null;
  /** When we fetched it (ms). */
  fetchedAt: number | null;
}

export interface FeedOptions<T> {
  /** Store key suffix and log label. */
  name: string;
  /** Seconds a fetched value counts as fresh. */
  ttlS: number;
  fetch: () => Promise<Sourced<T>>;
  /** Rejects a fetched value that is implausible next to the last real one; returns the reason. */
  check?: (next: Sourced<T>, last: Sourced<T> | null) => string | null;
  /**
   * Seconds the upstream is left alone after a failure of this kind (0: the usual pause after failures in a row), for
   * every instance sharing the store: a published file the reader refuses stays refused until a new one is published.
   */
  holdOffS?: (err: unknown) => number;
}

/**
 * After two failures in a row, wait this long (or the TTL, if shorter) before asking the upstream
 * again, so an outage costs one upstream call per pause and no request waits for a known-bad source.
 * A single failure is retried by the next request: one failure (a blip, or a burst on a cold process)
 * must not answer every request queued behind it from the fallback for the whole pause.
 */
const RETRY_AFTER_FAILURE_MS = 5000;

export const UNAVAILABLE: Reading<never> = { status: 'unavailable', value: null, asOf: null, source: null, fetchedAt: null };

/** What a feed holds in this process. */
interface FeedState<T> {
  mem: Sourced<T> | null;
  inflight: Promise<Reading<T>> | null;
  failedAt: number;
  /** Failed fetches in a row. */
  failures: number;
  lastError: string | null;
  /** No fetch before this time (ms): the hold after a failure `holdOffS` names. */
  holdUntil: number;
}

// One state per feed name for the whole process: the framework bundles the boot hook and the routes
// apart, so this module can be loaded more than once, and every copy must share one value and one
// upstream call in flight.
const STATES: Map<string, FeedState<unknown>> = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.feed-states')] ??= new Map()) as Map<
  string,
  FeedState<unknown>
>;

export class Feed<T> {
  private readonly s: FeedState<T>;

  constructor(private readonly opts: FeedOptions<T>) {
    if (!STATES.has(opts.name)) STATES.set(opts.name, { mem: null, inflight: null, failedAt: 0, failures: 0, lastError: null, holdUntil: 0 });
    this.s = STATES.get(opts.name) as FeedState<T>;
  }

  /** Why the last fetch failed, for error messages (null after a success). */
  get lastError(): string | null {
    return this.s.lastError;
  }

  private get key() {
    return `last:${this.opts.name}`;
  }

  private isFresh(v: Sourced<T> | null, now: number): v is Sourced<T> {
    return v !== null && now - v.fetchedAt < ttlMs(this.opts.ttlS);
  }

  /** The value for this request: fresh, stale or unavailable. Never throws. */
  read(): Promise<Reading<T>> {
    const now = Date.now();
    if (this.isFresh(this.s.mem, now)) return Promise.resolve(reading('fresh', this.s.mem, 'cache'));
    const backoff = this.s.failures > 1 ? Math.min(ttlMs(this.opts.ttlS), RETRY_AFTER_FAILURE_MS) : 0;
    if (now - this.s.failedAt < backoff || now < this.s.holdUntil) return this.fallback();
    this.s.inflight ??= this.refresh().finally(() => {
      this.s.inflight = null;
    });
    return this.s.inflight;
  }

  /** What we hold now, without asking the upstream: for error bodies and debug output. */
  async peek(): Promise<Reading<T>> {
    const last = await this.last();
    if (!last) return UNAVAILABLE;
    return reading(this.isFresh(last, Date.now()) ? 'fresh' : 'stale', last, 'cache');
  }

  private get holdKey() {
    return `hold:${this.opts.name}`;
  }

  private async refresh(): Promise<Reading<T>> {
    const last = await this.last();
    if (this.isFresh(last, Date.now())) return reading('fresh', last, 'cache');
    if (this.opts.holdOffS) {
      // Another instance's hold, seen through the store.
      const until = await safely(() => getStore().get<number>(this.holdKey), `read ${this.holdKey}`);
      if (until !== null && until > Date.now()) {
        this.s.holdUntil = until;
        return last ? reading('stale', last, 'cache') : UNAVAILABLE;
      }
    }
    try {
      // One scope for the fetch and the check: a value the check rejects makes its attempt count as invalid.
      const next = await attempting(async () => {
        const fetched = await this.opts.fetch();
        const reason = this.opts.check?.(fetched, last);
        if (reason) throw new UpstreamError(this.opts.name, `rejected: ${reason}`);
        return fetched;
      });
      this.s.mem = next;
      this.s.failedAt = 0;
      this.s.failures = 0;
      this.s.lastError = null;
      await safely(() => getStore().set(this.key, next), `save ${this.key}`);
      return reading('fresh', next, 'upstream');
    } catch (err) {
      this.s.failedAt = Date.now();
      this.s.failures++;
      this.s.lastError = err instanceof UpstreamError ? err.reason : 'upstream failed';
      console.warn(`[upstream] ${this.opts.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      const holdS = this.opts.holdOffS?.(err) ?? 0;
      if (holdS > 0) {
        this.s.holdUntil = Date.now() + holdS * 1000;
        await safely(() => getStore().set(this.holdKey, this.s.holdUntil, holdS), `save ${this.holdKey}`);
      }
      return last ? reading('stale', last, 'cache') : UNAVAILABLE;
    }
  }

  private async fallback(): Promise<Reading<T>> {
    const last = await this.last();
    return last ? reading('stale', last, 'cache') : UNAVAILABLE;
  }

  /** The newest real value: memory, else the store (shared with other processes and instances). */
  private async last(): Promise<Sourced<T> | null> {
    const stored = await safely(() => getStore().get<Sourced<T>>(this.key), `read ${this.key}`);
    const newest = stored && (!this.s.mem || stored.fetchedAt > this.s.mem.fetchedAt) ? stored : this.s.mem;
    this.s.mem = newest;
    return newest;
  }
}

function reading<T>(status: Status, v: Sourced<T>, source: Source): Reading<T> {
  return { status, value: v.value, asOf: v.asOf, source, fetchedAt: v.fetchedAt };
}
