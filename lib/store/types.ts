// The store holds everything that must outlive a request or a process: last known real
// prices, cached series, sampler points, claims and counters. Three backends implement it: the embedded
// SQLite file (default), and one shared by every instance on Redis (lib/store/redis-store.ts), reached over
// Upstash's REST API (Vercel KV) or over TCP (REDIS_URL).

/** One recorded sample: unix seconds and USD per troy ounce. */
export interface Point {
  t: number;
  p: number;
}

/** One daily bar of a metal: the session's open, high, low and close, USD per troy ounce (decisions §15). */
export interface DailyBar {
  /** Session date, YYYY-MM-DD (New York). */
  d: string;
  o: number;
  h: number;
  l: number;
  c: number;
  /** How many fresh served prices were folded in (0 for an imported bar). */
  n: number;
  origin: 'recorded' | 'imported';
  /** Times (ms) of the observations behind `o` and `c`; 0 for an imported bar. */
  t0: number;
  t1: number;
}

/**
 * Where the bars of a series stand (decisions §23), so an instance holding them knows when to read again:
 * `version` moves with every write that changed a bar (a fold, an import, a trim), `epoch` only with the writes
 * that may change any bar (an import, a trim; a fold changes only its session's bar). Each moves to the
 * later of the current time (ms) and one past its value, so a store emptied and written again never repeats
 * a version an instance holds. 0 when the series was never written under versions.
 */
export interface BarsVersion {
  version: number;
  epoch: number;
}

/**
 * The removals of a collection the store remembers for docsSince (the latest; older ones are forgotten, so a
 * collection whose documents come and go, as queued deliveries do, keeps no growing list of the ids it once held).
 */
export const KEPT_REMOVALS = 256;

export interface Store {
  /** `embedded`: SQLite in DATA_DIR; `kv`: Upstash Redis / Vercel KV over REST; `redis`: a Redis over TCP (REDIS_URL). */
  readonly kind: 'embedded' | 'kv' | 'redis';
  /** JSON value under `key`, or null when absent or expired. */
  get<T>(key: string): Promise<T | null>;
  /** Stores a JSON value; `ttlSeconds` makes it expire. */
  set<T>(key: string, value: T, ttlSeconds?: number): Promise<void>;
  /**
   * Stores `value` unless the value held under `key` has an `as_of` as new or newer, atomically (two
   * instances saving at once keep the newer); an expired or absent value is replaced. True when written.
   */
  setIfNewer<T extends { as_of: number }>(key: string, value: T, ttlSeconds: number): Promise<boolean>;
  /**
   * Stores `value` only when nothing is held under `key` (an expired value counts as nothing), atomically: of two
   * instances writing at once, the first write stays. True when written.
   */
  setIfAbsent<T>(key: string, value: T, ttlSeconds: number): Promise<boolean>;
  /** Atomically takes `key` if nobody holds it; true for the one caller that won. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** Gives up a claim, so the next caller wins it (the work it guarded failed and must be done again). */
  release(key: string): Promise<void>;
  /**
   * Adds `by` (default 1; negative gives back) to a counter that starts its `ttlSeconds` window on first
   * use; returns the new count.
   */
  incr(key: string, ttlSeconds: number, by?: number): Promise<number>;
  /** Adds a point to a time series (a second point at the same `t` replaces the first). */
  addPoint(series: string, point: Point): Promise<void>;
  /** Points with `from <= t <= to`, oldest first. */
  range(series: string, from: number, to: number): Promise<Point[]>;
  /** Removes points older than `before` (unix seconds); returns how many went. */
  trim(series: string, before: number): Promise<number>;
  /**
   * Folds one fresh served price (USD/oz, observed at `t` ms) into the bar of session `date`, atomically:
   * a new bar when there is none (or only an imported one), else the extremes widen, `n` counts it, the open
   * and close follow the earliest and latest observation. The observation behind the bar's open or close
   * again (another instance folding the same reading) changes nothing; callers claim each observation, so
   * none is counted twice (lib/prices/bars.ts). A change moves the series' `version` in the
   * same atomic step. Returns the bar as stored.
   */
  foldBar(series: string, date: string, t: number, price: number): Promise<DailyBar>;
  /**
   * Writes an operator's imported bars, all or none (one transaction, one script): a date holding a recorded
   * bar keeps it and is named in `kept`; any other date takes the imported bar. A failure leaves nothing written.
   * Writing any bar moves the series' `version` and `epoch` with it.
   */
  importBars(series: string, bars: DailyBar[]): Promise<{ written: number; kept: string[] }>;
  /** Bars dated `from <= d <= to`, oldest first; with `last`, only the newest `last` of them. */
  bars(series: string, from: string, to: string, last?: number): Promise<DailyBar[]>;
  /** Every bar of `series`, oldest first, and the version they are at: one read (one round trip in KV), no per-bar work in the store. */
  allBars(series: string): Promise<{ at: BarsVersion; bars: DailyBar[] }>;
  /** The version of `series` alone: a cheap read that moves no bar. */
  barsVersion(series: string): Promise<BarsVersion>;
  /** Removes bars dated before `before`; returns how many went (any moves the series' `version` and `epoch`). */
  trimBars(series: string, before: string): Promise<number>;
  /**
   * Adds each of `add`'s numbers to the count of that name in bucket `key`, atomically (two instances adding at
   * once lose neither); the bucket expires `ttlSeconds` after its last addition.
   */
  addCounts(key: string, add: Record<string, number>, ttlSeconds: number): Promise<void>;
  /** The counts of each bucket of `keys`, in that order (empty for one absent or expired): one round trip in KV. */
  counts(keys: string[]): Promise<Record<string, number>[]>;
  /**
   * Stores the JSON document `id` of collection `coll` (replacing one held), and moves the collection's version in
   * the same atomic step. Collections hold records read whole by every instance (the price alerts: lib/alerts/).
   */
  putDoc<T>(coll: string, id: string, value: T): Promise<void>;
  /** Document `id` of `coll`, or null when absent. */
  getDoc<T>(coll: string, id: string): Promise<T | null>;
  /**
   * Document `id` of `coll` with its revision (the collection version its last write brought, so it moves with every
   * write of it and never repeats), or null when absent: what `putDocIf` compares.
   */
  getDocRev<T>(coll: string, id: string): Promise<{ doc: T; rev: number } | null>;
  /**
   * Replaces document `id` of `coll` only while it is held at revision `rev` (compare-and-set, atomically, moving the
   * collection's version as putDoc does). False, writing nothing, when it was written again or removed since: a removed
   * document is never brought back, and of two writers that read the same revision one wins and the other reads again.
   */
  putDocIf<T>(coll: string, id: string, value: T, rev: number): Promise<boolean>;
  /** Removes document `id` of `coll` (moving the version when one went); true when it was there. */
  deleteDoc(coll: string, id: string): Promise<boolean>;
  /** Every document of `coll` and the version they are at: one read (one round trip in KV). */
  docs<T>(coll: string): Promise<{ version: number; docs: T[] }>;
  /**
   * What changed in `coll` since version `since`: the documents written after it and the ids removed after it, with
   * the version they bring the reader to; null when `since` is ahead of the store (a store emptied since), or so far
   * behind that removals it missed are no longer remembered (only the latest KEPT_REMOVALS of a collection are), so the
   * reader reads the whole collection. Lets an instance holding many documents follow a few changes cheaply.
   */
  docsSince<T>(coll: string, since: number): Promise<{ version: number; docs: T[]; removed: string[] } | null>;
  /** The version of `coll` alone (0 when never written): a cheap read, so an instance holding the documents knows when to read again. */
  docsVersion(coll: string): Promise<number>;
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
