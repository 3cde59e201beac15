// The store holds everything that must outlive a request or a process: last known real
// prices, cached series, sampler points, claims and counters. Two backends implement it:
// the embedded SQLite file (default) and Vercel KV / Upstash Redis (when configured).

/** One recorded sample: unix seconds and USD per troy ounce. */
export interface Point {
  t: number;
  p: number;
}

export interface Store {
  readonly kind: 'embedded' | 'kv';
  /** JSON value under `key`, or null when absent or expired. */
  get<T>(key: string): Promise<T | null>;
  /** Stores a JSON value; `ttlSeconds` makes it expire. */
  set<T>(key: string, value: T, ttlSeconds?: number): Promise<void>;
  /** Atomically takes `key` if nobody holds it; true for the one caller that won. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** Adds one to a counter that starts its `ttlSeconds` window on first use; returns the new count. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** Adds a point to a time series (a second point at the same `t` replaces the first). */
  addPoint(series: string, point: Point): Promise<void>;
  /** Points with `from <= t <= to`, oldest first. */
  range(series: string, from: number, to: number): Promise<Point[]>;
  /** Removes points older than `before` (unix seconds); returns how many went. */
  trim(series: string, before: number): Promise<number>;
  /** Whether a remote backend is answering; backends that cannot be unreachable leave it out. */
  health?(): StoreHealth;
  close(): Promise<void>;
}

export interface StoreHealth {
  /** True while the backend is unreachable and the instance runs on its own memory. */
  degraded: boolean;
  /** Start of the current outage (ms), null when healthy. */
  since: number | null;
  /** What failed first in this outage, null when healthy. */
  reason: string | null;
}

/**
 * Thrown by a backend that is unreachable (down, slow past its timeout, refusing the token). The
 * backend has already logged the outage once; callers treat the value as absent and need not log.
 */
export class StoreDownError extends Error {
  // Known by name: Next bundles instrumentation.ts apart from the routes, each with its own copy of
  // this class, and the one store of the process may have been opened from either.
  static [Symbol.hasInstance](x: unknown): boolean {
    return x instanceof Error && x.name === 'StoreDownError';
  }

  constructor(what: string, reason: string) {
    super(`store unavailable (${what}): ${reason}`);
    this.name = 'StoreDownError';
  }
}
