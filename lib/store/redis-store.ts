import { metrics } from '../core/metrics.mjs';
import { dayNumber } from './fold';
import { MemoryCounters } from './memory-counters';
import * as lua from './redis-scripts';
import { KEPT_REMOVALS, StoreDownError, type BarsVersion, type DailyBar, type Point, type Store, type StoreHealth } from './types';

// The shared store on any Redis, shared by every instance: one class over a small wire (RedisWire) with two
// transports, Upstash's REST API (lib/store/kv.ts, KV_REST_API_*) and a connection over TCP (lib/store/redis.ts,
// REDIS_URL). Both keep the same keys under the prefix and run the same scripts (lib/store/redis-scripts.ts).
// Values are JSON strings; claims are SET NX EX; counters INCR and set their expiry in one script; a series is a
// sorted set scored by t whose members are "t:p". Daily bars of a series are a hash (date → "o,h,l,c,n,origin,t0,t1",
// numbers as JavaScript wrote them) beside a sorted set of their dates scored by day number, and every change to
// them is one script, so two instances folding into one bar at once never lose an update. The same script moves the
// series' version (a small hash, fields v and e: lib/store/types.ts, BarsVersion). The whole series is one script
// reading the hash with the version: one round trip, no per-bar work. (Deployments from before versions hold their
// bars in this same hash and index: nothing to migrate; a series never versioned reads as 0.)
//
// Trouble with the server never takes the service down. Every call is bounded by the timeout. The first failure
// marks the store degraded and is logged once; from then on calls fail at once without waiting on the server
// (StoreDownError, which callers treat as an absent value), while claims and counters fall back to this instance's
// memory. At most once a second a call arriving while degraded sends one PING in the background; when the server
// answers, the shared state is used again and the memory fallback is dropped. No timer runs between requests, which
// suits serverless instances that are frozen between invocations.
//
// Only the transport counts as an outage: no connection, a timeout, a refused password or token, a limit, a server
// that cannot take writes now. Redis refusing a command (a script error, a key of the wrong type) is a defect of this
// service: logged once per distinct message with console.error, the store stays in use, and the call reads as absent
// (get), falls back to memory (claim, incr) or throws a plain Error (every write, which must not look done, and the
// series and bar reads, which are not empty).

/** A reply as RESP2 gives it, and Upstash's REST API in JSON: strings, integers, nil, arrays of them. */
export type Reply = string | number | null | Reply[];

/** How the store reaches its server: one command or one script at a time, each answered by its reply. */
export interface RedisWire {
  /** One command (`['GET', key]`); rejects when the transport fails or Redis answers an error. */
  send(args: string[]): Promise<Reply>;
  /** A script of lib/store/redis-scripts.ts with its keys and arguments. */
  eval(script: string, keys: string[], args: string[]): Promise<Reply>;
  /** Redis's own error reply carried by `err` (its text), or null when `err` is the transport's. */
  errorReply(err: unknown): string | null;
  /** What to log of a transport failure. */
  reason(err: unknown): string;
  close(): Promise<void>;
}

export interface RedisStoreOptions {
  kind: 'kv' | 'redis';
  /** The store as the log names it: `KV` (Upstash REST) or `Redis` (TCP). */
  label: string;
  /** Prepended to every key, so several deployments or test runs can share one database (KV_PREFIX). */
  prefix: string;
  /** Longest a single command may take before the server counts as down, ms (KV_TIMEOUT_MS). */
  timeoutMs: number;
}

/** While degraded, the server is probed at most this often, ms. */
const PROBE_EVERY_MS = 1000;

const encodeBar = (b: DailyBar) => [b.o, b.h, b.l, b.c, b.n, b.origin, b.t0, b.t1].join(',');
function decodeBar(d: string, raw: string): DailyBar {
  const [o, h, l, c, n, origin, t0, t1] = raw.split(',');
  return { d, o: +o, h: +h, l: +l, c: +c, n: +n, origin: origin === 'recorded' ? 'recorded' : 'imported', t0: +t0, t1: +t1 };
}
/** HMGET v e as Redis answers it (absent fields nil). */
const decodeVersion = (raw: Reply): BarsVersion => {
  const [v, e] = Array.isArray(raw) ? raw : [];
  return { version: Number(v ?? 0), epoch: Number(e ?? 0) };
};
/** A flat name, value, name, value… array (HGETALL) as pairs. */
function pairs(raw: Reply): [string, string][] {
  const flat = Array.isArray(raw) ? raw : [];
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([String(flat[i]), String(flat[i + 1])]);
  return out;
}
const list = (raw: Reply): Reply[] => (Array.isArray(raw) ? raw : []);
const ttl = (seconds: number) => String(Math.max(1, Math.ceil(seconds)));
const parse = <T>(raw: Reply): T | null => (raw === null || raw === undefined ? null : (JSON.parse(String(raw)) as T));

export class RedisStore implements Store {
  readonly kind: 'kv' | 'redis';
  private readonly fallback = new MemoryCounters();
  private downSince: number | null = null;
  private downReason: string | null = null;
  private lastProbe = 0;
  private probing = false;
  /** Command errors logged so far: a defect repeats on every call, the log says it once. */
  private readonly defects = new Set<string>();

  /** `wire` is null when the configuration cannot be used at all (`unusable` says why): the store then stays degraded. */
  constructor(
    private readonly wire: RedisWire | null,
    private readonly opts: RedisStoreOptions,
    unusable?: string,
  ) {
    this.kind = opts.kind;
    if (!wire) this.markDown(unusable ?? 'no connection');
  }

  private key(k: string) {
    return `${this.opts.prefix}v:${k}`;
  }
  private seriesKey(s: string) {
    return `${this.opts.prefix}s:${s}`;
  }
  private countsKey(k: string) {
    return `${this.opts.prefix}c:${k}`;
  }
  /** A series' bars hash, its date index, its version hash. */
  private barKeys(series: string) {
    const p = this.opts.prefix;
    return [`${p}b:${series}`, `${p}bi:${series}`, `${p}bv:${series}`];
  }
  // A collection is a hash (id → JSON) beside a counter that every change moves, a sorted set of the ids written
  // scored by the version that wrote them, one of the latest ids removed and the floor below which removals are
  // forgotten: each change is one script, so docsSince reads only what moved.
  private docKeys(coll: string): string[] {
    const p = this.opts.prefix;
    return [`${p}d:${coll}`, `${p}dv:${coll}`, `${p}dw:${coll}`, `${p}dg:${coll}`, `${p}df:${coll}`];
  }

  private send(what: string, args: string[]): Promise<Reply> {
    return this.call(what, (w) => w.send(args));
  }
  private eval(what: string, script: string, keys: string[], args: string[]): Promise<Reply> {
    return this.call(what, (w) => w.eval(script, keys, args));
  }

  async get<T>(key: string): Promise<T | null> {
    let raw: Reply;
    try {
      raw = await this.send('get', ['GET', this.key(key)]);
    } catch (err) {
      // A key Redis cannot read as a value holds nothing usable; the next set replaces it.
      if (err instanceof CommandError) return null;
      throw err;
    }
    return parse<T>(raw);
  }

  async set<T>(key: string, value: T, ttlSeconds?: number): Promise<void> {
    const args = ['SET', this.key(key), JSON.stringify(value)];
    await this.send('set', ttlSeconds ? [...args, 'EX', ttl(ttlSeconds)] : args);
  }

  async setIfNewer<T extends { as_of: number }>(key: string, value: T, ttlSeconds: number): Promise<boolean> {
    const args = [JSON.stringify(value), String(value.as_of), ttl(ttlSeconds)];
    return Number(await this.eval('setIfNewer', lua.SET_IF_NEWER, [this.key(key)], args)) === 1;
  }

  async setIfAbsent<T>(key: string, value: T, ttlSeconds: number): Promise<boolean> {
    return (await this.send('setIfAbsent', ['SET', this.key(key), JSON.stringify(value), 'NX', 'EX', ttl(ttlSeconds)])) === 'OK';
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    try {
      return (await this.send('claim', ['SET', this.key(key), '1', 'NX', 'EX', ttl(ttlSeconds)])) === 'OK';
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      return this.fallback.claim(key, Number(ttl(ttlSeconds)));
    }
  }

  async release(key: string): Promise<void> {
    try {
      await this.send('release', ['DEL', this.key(key)]);
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      this.fallback.release(key);
    }
  }

  async incr(key: string, ttlSeconds: number, by = 1): Promise<number> {
    try {
      return Number(await this.eval('incr', lua.INCR_WITH_WINDOW, [this.key(key)], [ttl(ttlSeconds), String(by)]));
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      return this.fallback.incr(key, Number(ttl(ttlSeconds)), by);
    }
  }

  async addPoint(series: string, point: Point): Promise<void> {
    const t = String(Math.trunc(point.t));
    await this.eval('addPoint', lua.ADD_POINT, [this.seriesKey(series)], [t, `${t}:${point.p}`]);
  }

  async range(series: string, from: number, to: number): Promise<Point[]> {
    const members = await this.send('range', ['ZRANGE', this.seriesKey(series), String(from), String(to), 'BYSCORE']);
    return list(members).map((m) => parseMember(String(m)));
  }

  async trim(series: string, before: number): Promise<number> {
    return Number(await this.send('trim', ['ZREMRANGEBYSCORE', this.seriesKey(series), '-inf', `(${before}`]));
  }

  async foldBar(series: string, date: string, t: number, price: number): Promise<DailyBar> {
    const args = [date, String(Math.trunc(t)), String(price), String(dayNumber(date)), String(Date.now())];
    return decodeBar(date, String(await this.eval('foldBar', lua.FOLD_BAR, this.barKeys(series), args)));
  }

  async importBars(series: string, bars: DailyBar[]): Promise<{ written: number; kept: string[] }> {
    // One script for the whole file (10 years of sessions is about 2,600 bars, some 200 kB).
    const args = [String(Date.now()), ...bars.flatMap((b) => [b.d, encodeBar({ ...b, origin: 'imported' }), String(dayNumber(b.d))])];
    const kept = list(await this.eval('importBars', lua.IMPORT_BARS, this.barKeys(series), args)).map(String);
    return { written: bars.length - kept.length, kept };
  }

  async bars(series: string, from: string, to: string, last?: number): Promise<DailyBar[]> {
    const args = [String(dayNumber(from)), String(dayNumber(to)), String(last ?? 0)];
    const out = pairs(await this.eval('bars', lua.READ_BARS, this.barKeys(series), args)).map(([d, raw]) => decodeBar(d, raw));
    return last ? out.reverse() : out;
  }

  async allBars(series: string): Promise<{ at: BarsVersion; bars: DailyBar[] }> {
    const [v, all] = list(await this.eval('allBars', lua.ALL_BARS, this.barKeys(series), []));
    const bars = pairs(all).map(([d, raw]) => decodeBar(d, raw));
    return { at: decodeVersion(v), bars: bars.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : 0)) };
  }

  async barsVersion(series: string): Promise<BarsVersion> {
    return decodeVersion(await this.send('barsVersion', ['HMGET', this.barKeys(series)[2], 'v', 'e']));
  }

  async trimBars(series: string, before: string): Promise<number> {
    const args = [String(dayNumber(before)), String(Date.now())];
    return Number(await this.eval('trimBars', lua.TRIM_BARS, this.barKeys(series), args));
  }

  async addCounts(key: string, add: Record<string, number>, ttlSeconds: number): Promise<void> {
    const args = [ttl(ttlSeconds), ...Object.entries(add).flatMap(([name, n]) => [name, String(n)])];
    await this.eval('addCounts', lua.ADD_COUNTS, [this.countsKey(key)], args);
  }

  async counts(keys: string[]): Promise<Record<string, number>[]> {
    if (keys.length === 0) return [];
    const got = list(
      await this.eval(
        'counts',
        lua.COUNTS,
        keys.map((k) => this.countsKey(k)),
        [],
      ),
    );
    return keys.map((_, i) => Object.fromEntries(pairs(got[i] ?? []).map(([name, n]) => [name, Number(n)])));
  }

  async putDoc<T>(coll: string, id: string, value: T): Promise<void> {
    await this.eval('putDoc', lua.PUT_DOC, this.docKeys(coll), [id, JSON.stringify(value)]);
  }

  async getDoc<T>(coll: string, id: string): Promise<T | null> {
    return parse<T>(await this.send('getDoc', ['HGET', this.docKeys(coll)[0], id]));
  }

  async getDocRev<T>(coll: string, id: string): Promise<{ doc: T; rev: number } | null> {
    const [raw, rev] = list(await this.eval('getDocRev', lua.GET_DOC_REV, this.docKeys(coll), [id]));
    if (raw === null || raw === undefined || rev === null || rev === undefined) return null;
    return { doc: JSON.parse(String(raw)) as T, rev: Number(rev) };
  }

  async putDocIf<T>(coll: string, id: string, value: T, rev: number): Promise<boolean> {
    return Number(await this.eval('putDocIf', lua.PUT_DOC_IF, this.docKeys(coll), [id, JSON.stringify(value), String(rev)])) > 0;
  }

  async deleteDoc(coll: string, id: string): Promise<boolean> {
    return Number(await this.eval('deleteDoc', lua.DELETE_DOC, this.docKeys(coll), [id, String(KEPT_REMOVALS)])) > 0;
  }

  async docs<T>(coll: string): Promise<{ version: number; docs: T[] }> {
    const [v, all] = list(await this.eval('docs', lua.DOCS, this.docKeys(coll), []));
    return { version: Number(v ?? 0), docs: pairs(all).map(([, raw]) => JSON.parse(raw) as T) };
  }

  async docsSince<T>(coll: string, since: number): Promise<{ version: number; docs: T[]; removed: string[] } | null> {
    const [version, values, removed] = list(await this.eval('docsSince', lua.DOCS_SINCE, this.docKeys(coll), [String(since)]));
    if (Number(version) < 0) return null;
    return { version: Number(version), docs: list(values).map((raw) => JSON.parse(String(raw)) as T), removed: list(removed).map(String) };
  }

  async docsVersion(coll: string): Promise<number> {
    return Number((await this.send('docsVersion', ['GET', this.docKeys(coll)[1]])) ?? 0);
  }

  health(): StoreHealth {
    if (this.downSince !== null) this.probe();
    return { degraded: this.downSince !== null, since: this.downSince, reason: this.downReason };
  }

  async close(): Promise<void> {
    this.fallback.clear();
    await this.wire?.close();
  }

  /**
   * Runs one request within the timeout. A command Redis refused becomes CommandError (logged once, the store
   * stays up); any other failure marks the store down and becomes StoreDownError.
   */
  private async call<R>(what: string, fn: (wire: RedisWire) => Promise<R>): Promise<R> {
    if (this.downSince !== null || !this.wire) {
      this.probe();
      throw new StoreDownError(what, this.downReason ?? 'down');
    }
    try {
      return await withDeadline(fn(this.wire), this.opts.timeoutMs);
    } catch (err) {
      const refused = this.refusal(err);
      metrics().kvErrors.inc({ kind: refused === null ? 'transport' : 'command' });
      if (refused !== null) {
        this.logDefect(`${what}: ${refused}`);
        throw new CommandError(this.opts.label, what, refused);
      }
      const reason = this.wire.reason(err);
      this.markDown(reason);
      throw new StoreDownError(what, reason);
    }
  }

  /**
   * Redis's refusal of a command, when `err` is one that is a defect of this service, else null (an outage). A
   * refused password or token (WRONGPASS, NOAUTH, NOPERM), a server that cannot take the command now (OOM, READONLY,
   * LOADING, BUSY, MASTERDOWN), a provider's limits and any other text count as an outage.
   */
  private refusal(err: unknown): string | null {
    const text = this.wire?.errorReply(err) ?? null;
    if (text === null || !/^(ERR|WRONGTYPE|NOSCRIPT|EXECABORT) /.test(text) || /\bmax\b|limit|quota|exceeded/i.test(text)) return null;
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }

  private logDefect(line: string) {
    if (this.defects.has(line)) return;
    // Bounded, should a message carry something that changes on every call.
    if (this.defects.size >= 100) this.defects.clear();
    this.defects.add(line);
    console.error(`[store] ${this.opts.label} refused a command (${line}): a defect in this service, not an outage; ${this.opts.label} stays in use`);
  }

  private markDown(reason: string) {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    this.downReason = reason;
    this.lastProbe = Date.now();
    console.warn(
      `[store] ${this.opts.label} unavailable (${reason}): answering from memory and the upstreams; claims and rate-limit counters are per instance until ${this.opts.label} answers again`,
    );
  }

  /** One background PING at a time, at most once per PROBE_EVERY_MS; success ends the outage. */
  private probe() {
    const now = Date.now();
    if (!this.wire || this.probing || now - this.lastProbe < PROBE_EVERY_MS) return;
    this.probing = true;
    this.lastProbe = now;
    withDeadline(this.wire.send(['PING']), this.opts.timeoutMs)
      .then(() => {
        if (this.downSince === null) return;
        const s = ((Date.now() - this.downSince) / 1000).toFixed(1);
        this.downSince = null;
        this.downReason = null;
        this.fallback.clear();
        console.warn(`[store] ${this.opts.label} answering again after ${s} s: shared state resumed`);
      })
      .catch(() => {})
      .finally(() => {
        this.probing = false;
      });
  }
}

/** Redis refused a command: a defect, thrown as a plain Error (not StoreDownError), with the store still up. */
class CommandError extends Error {
  constructor(label: string, what: string, text: string) {
    super(`${label} refused ${what}: ${text}`);
    this.name = 'KvCommandError';
  }
}

function parseMember(m: string): Point {
  const i = m.indexOf(':');
  return { t: Number(m.slice(0, i)), p: Number(m.slice(i + 1)) };
}

/** A failure's text for the log, bounded. */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  const text = cause ? `${err.message} (${cause})` : err.message;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

class DeadlineError extends Error {
  override name = 'TimeoutError';
}

/** Rejects when `p` has not settled within `ms` (the transport's own timeout should get there first). */
function withDeadline<R>(p: Promise<R>, ms: number): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${ms} ms`)), ms + 50);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
