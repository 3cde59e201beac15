import { Redis } from '@upstash/redis';
import { metrics } from '../core/metrics.mjs';
import { dayNumber } from './fold';
import { MemoryCounters } from './memory-counters';
import { KEPT_REMOVALS, StoreDownError, type BarsVersion, type DailyBar, type Point, type Store, type StoreHealth } from './types';

// The distributed store: Vercel KV / Upstash Redis over its REST protocol, shared by every
// instance. Values are JSON strings; claims are SET NX EX; counters INCR and set their expiry in
// the same Lua script; a series is a sorted set scored by t whose members are "t:p". Daily bars of a
// series are a hash (date → "o,h,l,c,n,origin,t0,t1", numbers as JavaScript wrote them) beside a sorted
// set of their dates scored by day number, and every change to them is one Lua script, so two instances
// folding into one bar at once never lose an update. The same script moves the series' version (a small
// hash, fields v and e: lib/store/types.ts, BarsVersion). The whole series is one HGETALL of the hash,
// with the version in the same MULTI: one round trip, no per-bar work. (Deployments from before versions
// hold their bars in this same hash and index: nothing to migrate; a series never versioned reads as 0.)
//
// KV trouble never takes the service down. Every call is bounded by a short timeout (the client's
// own retries are off). The first failure marks the store degraded and is logged once; from then
// on calls fail at once without waiting on KV (StoreDownError, which callers treat as an absent
// value), while claims and counters fall back to this instance's memory. At most once a second a
// call arriving while degraded sends one PING in the background; when KV answers, the shared
// state is used again and the memory fallback is dropped. No timer runs between requests, which
// suits serverless instances that are frozen between invocations.
//
// Only the transport counts as an outage: no connection, a timeout, an answer that is not Upstash's
// JSON, an HTTP error (a refused token, a limit, a server error). Redis refusing a command (a script
// error, a key of the wrong type) is a defect of this service: logged once per distinct message with
// console.error, KV stays in use, and the call reads as absent (get), falls back to memory (claim, incr)
// or throws a plain Error (every write, which must not look done, and the series and bar reads, which
// are not empty).

export interface KvOptions {
  /** REST endpoint (KV_REST_API_URL). */
  url: string;
  /** REST token (KV_REST_API_TOKEN). */
  token: string;
  /** Prepended to every key, so several deployments or test runs can share one database. */
  prefix: string;
  /** Longest a single KV request may take before KV counts as down, ms. */
  timeoutMs: number;
}

/** While degraded, KV is probed at most this often, ms. */
const PROBE_EVERY_MS = 1000;

/** INCRBY, and start the window on the first increment (or on a counter that somehow lost its expiry). ARGV: TTL (s), amount. */
const INCR_WITH_WINDOW = `
local fresh = redis.call('EXISTS', KEYS[1]) == 0
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if fresh or redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** The value unless the one held has an `as_of` as new or newer: KEYS key; ARGV value (JSON), its as_of, TTL (s). */
const SET_IF_NEWER = `
local held = redis.call('GET', KEYS[1])
if held then
  local ok, old = pcall(cjson.decode, held)
  local was = ok and type(old) == 'table' and tonumber(old.as_of)
  if was and was >= tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1`;

/** Moves a version field to the later of now (ms) and one past its value `held`; KEYS[3] is the series' version hash. */
const BUMP = `
local function bump(field, held, now)
  redis.call('HSET', KEYS[3], field, string.format('%.0f', math.max(now, (tonumber(held) or 0) + 1)))
end`;

/** lib/store/fold.ts in Lua: KEYS bars hash, date index, version hash; ARGV date, t (ms), price, day number, now (ms). */
const FOLD_BAR = `${BUMP}
local held = redis.call('HGET', KEYS[3], 'v')
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local t, p = tonumber(ARGV[2]), tonumber(ARGV[3])
local bar = ARGV[3] .. ',' .. ARGV[3] .. ',' .. ARGV[3] .. ',' .. ARGV[3] .. ',1,recorded,' .. ARGV[2] .. ',' .. ARGV[2]
if raw then
  local f = {}
  for x in string.gmatch(raw, '[^,]+') do f[#f + 1] = x end
  if f[6] == 'recorded' then
    if tonumber(f[8]) == t or tonumber(f[7]) == t then return raw end
    if p > tonumber(f[2]) then f[2] = ARGV[3] end
    if p < tonumber(f[3]) then f[3] = ARGV[3] end
    f[5] = tostring(tonumber(f[5]) + 1)
    if t < tonumber(f[7]) then f[1] = ARGV[3]; f[7] = ARGV[2] end
    if t > tonumber(f[8]) then f[4] = ARGV[3]; f[8] = ARGV[2] end
    bar = table.concat(f, ',')
  end
end
redis.call('HSET', KEYS[1], ARGV[1], bar)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
bump('v', held, tonumber(ARGV[5]))
return bar`;

/**
 * An operator's imported bars in one script, ARGV now (ms), then date, encoded bar, day number for each; a date
 * holding a recorded bar keeps it. Returns the dates kept. Redis does not undo a script's writes when it fails, so
 * every read (which also fails on a key of the wrong type) comes before the first write.
 */
const IMPORT_BARS = `${BUMP}
redis.call('ZCARD', KEYS[2])
local v = redis.call('HMGET', KEYS[3], 'v', 'e')
local kept, put = {}, {}
for i = 2, #ARGV, 3 do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw and string.find(raw, ',recorded,', 1, true) then kept[#kept + 1] = ARGV[i] else put[#put + 1] = i end
end
for _, i in ipairs(put) do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i])
end
if #put > 0 then
  bump('v', v[1], tonumber(ARGV[1]))
  bump('e', v[2], tonumber(ARGV[1]))
end
return kept`;

/** Bars between two day numbers, oldest first (the newest ARGV[3] when it is above 0), as date, bar, date, bar… */
const READ_BARS = `
local dates
if tonumber(ARGV[3]) > 0 then
  dates = redis.call('ZREVRANGEBYSCORE', KEYS[2], ARGV[2], ARGV[1], 'LIMIT', 0, ARGV[3])
else
  dates = redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[2])
end
local out = {}
for _, d in ipairs(dates) do
  local raw = redis.call('HGET', KEYS[1], d)
  if raw then out[#out + 1] = d; out[#out + 1] = raw end
end
return out`;

/** Removes the bars dated before day number ARGV[1]; returns how many went. ARGV[2] now (ms). */
const TRIM_BARS = `${BUMP}
local v = redis.call('HMGET', KEYS[3], 'v', 'e')
local dates = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
if #dates == 0 then return 0 end
for _, d in ipairs(dates) do redis.call('HDEL', KEYS[1], d) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
bump('v', v[1], tonumber(ARGV[2]))
bump('e', v[2], tonumber(ARGV[2]))
return #dates`;

/** Writes a document: KEYS hash, version, written ids, removed ids; ARGV id, JSON. Returns the new version. */
const PUT_DOC = `
local v = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], v, ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return v`;

/**
 * Writes a document only while it is held at revision ARGV[3] (its score among the written ids, the version that wrote
 * it): the keys and first ARGV of PUT_DOC. The new version, or 0 when it was written again or removed since.
 */
const PUT_DOC_IF = `
local rev = redis.call('ZSCORE', KEYS[3], ARGV[1])
if not rev or tonumber(rev) ~= tonumber(ARGV[3]) or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local v = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], v, ARGV[1])
return v`;

/**
 * Removes a document (the keys of PUT_DOC, and the floor; ARGV id, removals kept): the new version, or 0 when there was
 * none. Past the removals kept, the oldest are forgotten and the floor moves to the newest forgotten one's version.
 */
const DELETE_DOC = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local v = redis.call('INCR', KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], v, ARGV[1])
local over = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[2])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[4], over - 1, over - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, over - 1)
  redis.call('SET', KEYS[5], old[2])
end
return v`;

/**
 * What changed after version ARGV[1] (the keys of DELETE_DOC): {version, {JSON…}, {removed id…}}, or {-1} when ARGV[1]
 * is ahead, or behind the floor (removals it missed are forgotten).
 */
const DOCS_SINCE = `
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) > v or tonumber(ARGV[1]) < tonumber(redis.call('GET', KEYS[5]) or '0') then return {-1} end
local ids = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[1], '+inf')
local values = {}
for i, id in ipairs(ids) do values[i] = redis.call('HGET', KEYS[1], id) end
return {v, values, redis.call('ZRANGEBYSCORE', KEYS[4], '(' .. ARGV[1], '+inf')}`;

const encodeBar = (b: DailyBar) => [b.o, b.h, b.l, b.c, b.n, b.origin, b.t0, b.t1].join(',');
function decodeBar(d: string, raw: string): DailyBar {
  const [o, h, l, c, n, origin, t0, t1] = raw.split(',');
  return { d, o: +o, h: +h, l: +l, c: +c, n: +n, origin: origin === 'recorded' ? 'recorded' : 'imported', t0: +t0, t1: +t1 };
}
/** HMGET v e as Redis answers it (absent fields null). */
const decodeVersion = (raw: unknown): BarsVersion => {
  const [v, e] = (Array.isArray(raw) ? raw : []) as (string | null)[];
  return { version: Number(v ?? 0), epoch: Number(e ?? 0) };
};

export function openKvStore(opts: KvOptions): Store {
  return new KvStore(opts);
}

class KvStore implements Store {
  readonly kind = 'kv' as const;
  /** Null when the URL cannot be used at all: the store then stays degraded (logged once). */
  private readonly redis: Redis | null = null;
  private readonly fallback = new MemoryCounters();
  private downSince: number | null = null;
  private downReason: string | null = null;
  private lastProbe = 0;
  private probing = false;
  /** Command errors logged so far: a defect repeats on every call, the log says it once. */
  private readonly defects = new Set<string>();

  constructor(private readonly opts: KvOptions) {
    try {
      this.redis = this.connect();
    } catch (err) {
      this.markDown(`unusable KV_REST_API_URL: ${reasonOf(err)}`);
    }
  }

  private connect(): Redis {
    return new Redis({
      url: this.opts.url,
      token: this.opts.token,
      // retry:false would still try twice in 1.39; zero retries is one attempt. Our timeout and
      // probe decide when KV is back, not the client's backoff.
      retry: { retries: 0 },
      // A fresh signal per HTTP request (a fixed one would abort every later request too).
      signal: () => AbortSignal.timeout(this.opts.timeoutMs),
      automaticDeserialization: false,
      enableTelemetry: false,
    });
  }

  /** The client, or a StoreDownError when there is none. */
  private get client(): Redis {
    if (!this.redis) throw new StoreDownError('connect', this.downReason ?? 'no client');
    return this.redis;
  }

  private key(k: string) {
    return `${this.opts.prefix}v:${k}`;
  }
  private seriesKey(s: string) {
    return `${this.opts.prefix}s:${s}`;
  }

  async get<T>(key: string): Promise<T | null> {
    let raw: string | null;
    try {
      raw = await this.call('get', () => this.client.get<string>(this.key(key)));
    } catch (err) {
      // A key Redis cannot read as a value holds nothing usable; the next set replaces it.
      if (err instanceof CommandError) return null;
      throw err;
    }
    return raw === null || raw === undefined ? null : (JSON.parse(raw) as T);
  }

  async set<T>(key: string, value: T, ttlSeconds?: number): Promise<void> {
    const json = JSON.stringify(value);
    await this.call('set', () =>
      ttlSeconds ? this.client.set(this.key(key), json, { ex: Math.max(1, Math.ceil(ttlSeconds)) }) : this.client.set(this.key(key), json),
    );
  }

  async setIfNewer<T extends { as_of: number }>(key: string, value: T, ttlSeconds: number): Promise<boolean> {
    const args = [JSON.stringify(value), String(value.as_of), String(Math.max(1, Math.ceil(ttlSeconds)))];
    return Number(await this.call('setIfNewer', () => this.client.eval<string[], number>(SET_IF_NEWER, [this.key(key)], args))) === 1;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    try {
      const r = await this.call('claim', () => this.client.set(this.key(key), '1', { nx: true, ex: ttl }));
      return r === 'OK';
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      return this.fallback.claim(key, ttl);
    }
  }

  async release(key: string): Promise<void> {
    try {
      await this.call('release', () => this.client.del(this.key(key)));
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      this.fallback.release(key);
    }
  }

  async incr(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    try {
      return Number(await this.call('incr', () => this.client.eval<[number, number], number>(INCR_WITH_WINDOW, [this.key(key)], [ttl, by])));
    } catch (err) {
      if (!(err instanceof StoreDownError || err instanceof CommandError)) throw err;
      return this.fallback.incr(key, ttl, by);
    }
  }

  async addPoint(series: string, point: Point): Promise<void> {
    const t = Math.trunc(point.t);
    const k = this.seriesKey(series);
    // One MULTI: drop any point at this t, then add the new one, so the last writer wins atomically.
    await this.call('addPoint', () =>
      this.client
        .multi()
        .zremrangebyscore(k, t, t)
        .zadd(k, { score: t, member: `${t}:${point.p}` })
        .exec(),
    );
  }

  async range(series: string, from: number, to: number): Promise<Point[]> {
    const members = await this.call('range', () => this.client.zrange<string[]>(this.seriesKey(series), from, to, { byScore: true }));
    return members.map(parseMember);
  }

  async trim(series: string, before: number): Promise<number> {
    return Number(await this.call('trim', () => this.client.zremrangebyscore(this.seriesKey(series), '-inf', `(${before}`)));
  }

  /** A series' bars hash, its date index, its version hash. */
  private barKeys(series: string) {
    return [`${this.opts.prefix}b:${series}`, `${this.opts.prefix}bi:${series}`, `${this.opts.prefix}bv:${series}`];
  }

  async foldBar(series: string, date: string, t: number, price: number): Promise<DailyBar> {
    const args = [date, String(Math.trunc(t)), String(price), String(dayNumber(date)), String(Date.now())];
    const raw = await this.call('foldBar', () => this.client.eval<string[], string>(FOLD_BAR, this.barKeys(series), args));
    return decodeBar(date, String(raw));
  }

  async importBars(series: string, bars: DailyBar[]): Promise<{ written: number; kept: string[] }> {
    // One EVAL for the whole file (10 years of sessions is about 2,600 bars, some 200 kB).
    const args = [String(Date.now()), ...bars.flatMap((b) => [b.d, encodeBar({ ...b, origin: 'imported' }), String(dayNumber(b.d))])];
    const kept = await this.call('importBars', () => this.client.eval<string[], string[]>(IMPORT_BARS, this.barKeys(series), args));
    return { written: bars.length - kept.length, kept: kept.map(String) };
  }

  async bars(series: string, from: string, to: string, last?: number): Promise<DailyBar[]> {
    const args = [String(dayNumber(from)), String(dayNumber(to)), String(last ?? 0)];
    const flat = await this.call('bars', () => this.client.eval<string[], string[]>(READ_BARS, this.barKeys(series), args));
    const out: DailyBar[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push(decodeBar(String(flat[i]), String(flat[i + 1])));
    return last ? out.reverse() : out;
  }

  async allBars(series: string): Promise<{ at: BarsVersion; bars: DailyBar[] }> {
    const [hash, , version] = this.barKeys(series);
    // One MULTI: the version and the bars it stands for, read together.
    const [v, flat] = await this.call('allBars', () => this.client.multi().hmget(version, 'v', 'e').hgetall(hash).exec<[unknown, unknown]>());
    const pairs = (Array.isArray(flat) ? flat : []) as string[];
    const bars: DailyBar[] = [];
    for (let i = 0; i + 1 < pairs.length; i += 2) bars.push(decodeBar(String(pairs[i]), String(pairs[i + 1])));
    return { at: decodeVersion(v), bars: bars.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : 0)) };
  }

  async barsVersion(series: string): Promise<BarsVersion> {
    return decodeVersion(await this.call('barsVersion', () => this.client.hmget(this.barKeys(series)[2], 'v', 'e')));
  }

  async trimBars(series: string, before: string): Promise<number> {
    const args = [String(dayNumber(before)), String(Date.now())];
    return Number(await this.call('trimBars', () => this.client.eval<string[], number>(TRIM_BARS, this.barKeys(series), args)));
  }

  async addCounts(key: string, add: Record<string, number>, ttlSeconds: number): Promise<void> {
    const k = this.countsKey(key);
    // One MULTI: every HINCRBY is atomic on its own, and the bucket's expiry moves with them.
    await this.call('addCounts', () => {
      const tx = this.client.multi();
      for (const [name, n] of Object.entries(add)) tx.hincrby(k, name, n);
      return tx.expire(k, Math.max(1, Math.ceil(ttlSeconds))).exec();
    });
  }

  async counts(keys: string[]): Promise<Record<string, number>[]> {
    if (keys.length === 0) return [];
    const got = await this.call('counts', () => {
      const p = this.client.pipeline();
      for (const key of keys) p.hgetall(this.countsKey(key));
      return p.exec<unknown[]>();
    });
    // Inside a pipeline the client leaves HGETALL as Redis answers it: name, count, name, count…
    return got.map((h) => {
      const out: Record<string, number> = {};
      if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) out[String(h[i])] = Number(h[i + 1]);
      else for (const [name, n] of Object.entries((h ?? {}) as Record<string, unknown>)) out[name] = Number(n);
      return out;
    });
  }

  // A collection is a hash (id → JSON) beside a counter that every change moves, a sorted set of the ids written
  // scored by the version that wrote them, one of the latest ids removed and the floor below which removals are
  // forgotten: each change is one script, so docsSince reads only what moved.
  private docKeys(coll: string): string[] {
    const p = this.opts.prefix;
    return [`${p}d:${coll}`, `${p}dv:${coll}`, `${p}dw:${coll}`, `${p}dg:${coll}`, `${p}df:${coll}`];
  }

  async putDoc<T>(coll: string, id: string, value: T): Promise<void> {
    await this.call('putDoc', () => this.client.eval(PUT_DOC, this.docKeys(coll), [id, JSON.stringify(value)]));
  }

  async getDoc<T>(coll: string, id: string): Promise<T | null> {
    const raw = await this.call('getDoc', () => this.client.hget<string>(this.docKeys(coll)[0], id));
    return raw === null || raw === undefined ? null : (JSON.parse(String(raw)) as T);
  }

  async getDocRev<T>(coll: string, id: string): Promise<{ doc: T; rev: number } | null> {
    const [hash, , written] = this.docKeys(coll);
    // One MULTI: the document and the revision it is at, read together.
    const [raw, rev] = await this.call('getDocRev', () => this.client.multi().hget(hash, id).zscore(written, id).exec<[unknown, unknown]>());
    if (raw === null || raw === undefined || rev === null || rev === undefined) return null;
    return { doc: JSON.parse(String(raw)) as T, rev: Number(rev) };
  }

  async putDocIf<T>(coll: string, id: string, value: T, rev: number): Promise<boolean> {
    const args = [id, JSON.stringify(value), String(rev)];
    return Number(await this.call('putDocIf', () => this.client.eval(PUT_DOC_IF, this.docKeys(coll), args))) > 0;
  }

  async deleteDoc(coll: string, id: string): Promise<boolean> {
    return Number(await this.call('deleteDoc', () => this.client.eval(DELETE_DOC, this.docKeys(coll), [id, String(KEPT_REMOVALS)]))) > 0;
  }

  async docs<T>(coll: string): Promise<{ version: number; docs: T[] }> {
    const [hash, version] = this.docKeys(coll);
    const [v, all] = await this.call('docs', () => this.client.multi().get(version).hgetall(hash).exec<[unknown, unknown]>());
    const values = Array.isArray(all) ? all.filter((_, i) => i % 2 === 1) : Object.values((all ?? {}) as Record<string, unknown>);
    return { version: Number(v ?? 0), docs: values.map((raw) => JSON.parse(String(raw)) as T) };
  }

  async docsSince<T>(coll: string, since: number): Promise<{ version: number; docs: T[]; removed: string[] } | null> {
    const got = await this.call('docsSince', () => this.client.eval<string[], unknown[]>(DOCS_SINCE, this.docKeys(coll), [String(since)]));
    const [version, values, removed] = got as [number, unknown[], unknown[]];
    if (Number(version) < 0) return null;
    return { version: Number(version), docs: (values ?? []).map((raw) => JSON.parse(String(raw)) as T), removed: (removed ?? []).map(String) };
  }

  async docsVersion(coll: string): Promise<number> {
    return Number((await this.call('docsVersion', () => this.client.get<string>(this.docKeys(coll)[1]))) ?? 0);
  }

  private countsKey(k: string) {
    return `${this.opts.prefix}c:${k}`;
  }

  health(): StoreHealth {
    if (this.downSince !== null) this.probe();
    return { degraded: this.downSince !== null, since: this.downSince, reason: this.downReason };
  }

  async close(): Promise<void> {
    this.fallback.clear();
  }

  /**
   * Runs one KV request within the timeout. A command Redis refused becomes CommandError (logged once,
   * KV stays up); any other failure marks KV down and becomes StoreDownError.
   */
  private async call<R>(what: string, fn: () => Promise<R>): Promise<R> {
    if (this.downSince !== null) {
      this.probe();
      throw new StoreDownError(what, this.downReason ?? 'down');
    }
    try {
      return await withDeadline(fn(), this.opts.timeoutMs);
    } catch (err) {
      const refused = commandError(err);
      metrics().kvErrors.inc({ kind: refused === null ? 'transport' : 'command' });
      if (refused !== null) {
        this.logDefect(`${what}: ${refused}`);
        throw new CommandError(what, refused);
      }
      const reason = reasonOf(err);
      this.markDown(reason);
      throw new StoreDownError(what, reason);
    }
  }

  private logDefect(line: string) {
    if (this.defects.has(line)) return;
    // Bounded, should a message carry something that changes on every call.
    if (this.defects.size >= 100) this.defects.clear();
    this.defects.add(line);
    console.error(`[store] KV refused a command (${line}): a defect in this service, not an outage; KV stays in use`);
  }

  private markDown(reason: string) {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    this.downReason = reason;
    this.lastProbe = Date.now();
    console.warn(
      `[store] KV unavailable (${reason}): answering from memory and the upstreams; claims and rate-limit counters are per instance until KV answers again`,
    );
  }

  /** One background PING at a time, at most once per PROBE_EVERY_MS; success ends the outage. */
  private probe() {
    const now = Date.now();
    if (!this.redis || this.probing || now - this.lastProbe < PROBE_EVERY_MS) return;
    this.probing = true;
    this.lastProbe = now;
    withDeadline(this.redis.ping(), this.opts.timeoutMs)
      .then(() => {
        if (this.downSince === null) return;
        const s = ((Date.now() - this.downSince) / 1000).toFixed(1);
        this.downSince = null;
        this.downReason = null;
        this.fallback.clear();
        console.warn(`[store] KV answering again after ${s} s: shared state resumed`);
      })
      .catch(() => {})
      .finally(() => {
        this.probing = false;
      });
  }
}

/** Redis refused a command: a defect, thrown as a plain Error (not StoreDownError), with KV still up. */
class CommandError extends Error {
  constructor(what: string, text: string) {
    super(`KV refused ${what}: ${text}`);
    this.name = 'KvCommandError';
  }
}

/**
 * Redis's own refusal of a command, when `err` carries one, else null. Upstash answers a refused command
 * with {"error": "..."}, inside a 200 batch answer or with HTTP 400 for a single command, and the client
 * throws UpstashError with Redis's text in one of its framings. A refused token (WRONGPASS, NOPERM),
 * Upstash's own limits and any other text count as an outage, as do errors that are not UpstashError
 * (network, timeout) and an answer that is not JSON (UpstashJSONParseError).
 */
function commandError(err: unknown): string | null {
  if (!(err instanceof Error) || err.name !== 'UpstashError') return null;
  // "Command failed: X", "Command 2 [ zadd ] failed: X", "X, command was: [...]", or X.
  const text = err.message.replace(/^Command (?:\d+ \[ [^\]]* \] )?failed: /, '').replace(/, command was: [\s\S]*$/, '');
  if (!/^(ERR|WRONGTYPE|NOSCRIPT|EXECABORT) /.test(text) || /\bmax\b|limit|quota|exceeded/i.test(text)) return null;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function parseMember(m: string): Point {
  const i = m.indexOf(':');
  return { t: Number(m.slice(0, i)), p: Number(m.slice(i + 1)) };
}

function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  const text = cause ? `${err.message} (${cause})` : err.message;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

class DeadlineError extends Error {
  override name = 'TimeoutError';
}

/** Rejects when `p` has not settled within `ms` (the abort signal should get there first). */
function withDeadline<R>(p: Promise<R>, ms: number): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${ms} ms`)), ms + 50);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
