import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fold } from './fold';
import { MemoryCounters } from './memory-counters';
import { KEPT_REMOVALS, StoreDownError, type BarsVersion, type DailyBar, type Point, type Store, type StoreHealth } from './types';

// SQLite in WAL mode, through Node's own `node:sqlite` (no native addon to build or match to the
// runtime): every write is a transaction, so a crash never leaves a half-written value, and several
// processes on one DATA_DIR share it safely (busy_timeout waits for locks). Series rows are keyed by
// (series, t), so a window query reads only that window.
//
// A store that cannot be used never takes a response down, as with KV: a DATA_DIR that cannot hold
// the file (not a folder, read-only, locked by another process past the wait, no `node:sqlite` in this
// Node) is named once at open, and the store runs on memory alone while the file is tried again in the
// background; a read or write that fails later (full disk, I/O error) is logged once, becomes
// StoreDownError (callers treat the value as absent), and claims and counters fall back to this
// instance's memory until the file answers again.

type Sqlite = typeof import('node:sqlite');

/** How long a statement waits for another process's lock before it fails, ms. */
const BUSY_TIMEOUT_MS = 5000;
/** How long a background reopen waits for a lock, ms: it runs on the event loop, between requests. */
const REOPEN_BUSY_MS = 100;
/** Background reopens: the first a second after the failed open, then twice as long each time, up to a minute. */
const REOPEN_FIRST_MS = 1000;
const REOPEN_MAX_MS = 60_000;

export interface EmbeddedOptions {
  /** How long opening the file waits for another process's lock, ms (default 5000). */
  busyTimeoutMs?: number;
}

function openDatabase(dir: string, busyMs: number): DatabaseSync {
  // Looked up at run time, so a Node without the module degrades instead of failing to load this file.
  const sqlite = process.getBuiltinModule('node:sqlite') as Sqlite | undefined;
  if (!sqlite) throw new Error(`this Node (${process.version}) has no node:sqlite`);
  fs.mkdirSync(dir, { recursive: true });
  const db = new sqlite.DatabaseSync(path.join(dir, 'store.sqlite'));
  try {
    // busy_timeout first: switching to WAL needs a lock, and without the wait a file another process
    // holds at this moment would fail the open at once instead of waiting for it.
    db.exec(`
      PRAGMA busy_timeout = ${busyMs};
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
      CREATE TABLE IF NOT EXISTS points (series TEXT NOT NULL, t INTEGER NOT NULL, p REAL NOT NULL,
        PRIMARY KEY (series, t)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS bars (series TEXT NOT NULL, d TEXT NOT NULL, o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL,
        c REAL NOT NULL, n INTEGER NOT NULL, origin TEXT NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,
        PRIMARY KEY (series, d)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS counts (key TEXT NOT NULL, name TEXT NOT NULL, n INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (key, name)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS docs (coll TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL, v INTEGER NOT NULL,
        PRIMARY KEY (coll, id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS docs_by_version ON docs (coll, v);
      CREATE TABLE IF NOT EXISTS doc_gone (coll TEXT NOT NULL, id TEXT NOT NULL, v INTEGER NOT NULL, PRIMARY KEY (coll, id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS doc_gone_by_version ON doc_gone (coll, v);
      CREATE TABLE IF NOT EXISTS doc_floor (coll TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS doc_versions (coll TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS bar_versions (series TEXT PRIMARY KEY, version INTEGER NOT NULL, epoch INTEGER NOT NULL) WITHOUT ROWID;
      PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};
    `);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

export function openEmbeddedStore(dir: string, opts: EmbeddedOptions = {}): Store {
  const busyMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  try {
    return sqliteStore(openDatabase(dir, busyMs), path.resolve(dir));
  } catch (err) {
    const reason = reasonOf(err);
    console.warn(
      `[store] DATA_DIR ${JSON.stringify(path.resolve(dir))} cannot hold the store (${reason}): answering from memory and the upstreams, nothing kept, while the file is tried again in the background. Point DATA_DIR at a writable folder.`,
    );
    return reopening(dir, reason, Math.min(busyMs, REOPEN_BUSY_MS));
  }
}

/**
 * The store when the file could not be opened at start: memory alone (reads and writes fail as
 * StoreDownError, claims and counters are this instance's) while an unref'd timer tries the file again,
 * backing off; the first open that works is used from then on, logged once. Nothing is written to memory
 * meanwhile, so nothing needs writing through: the memory claims and counters are dropped, as when KV
 * comes back, and the next observations are written to the file as usual.
 */
function reopening(dir: string, reason: string, busyMs: number): Store {
  const where = path.resolve(dir);
  const since = Date.now();
  const memory = new MemoryOnlyStore(reason);
  let current: Store = memory;
  let timer: NodeJS.Timeout | undefined;
  const retry = (wait: number) => {
    timer = setTimeout(() => {
      try {
        current = sqliteStore(openDatabase(dir, busyMs), where);
      } catch {
        retry(Math.min(wait * 2, REOPEN_MAX_MS));
        return;
      }
      void memory.close();
      console.warn(
        `[store] DATA_DIR ${JSON.stringify(where)} holds the store again after ${((Date.now() - since) / 1000).toFixed(1)} s: kept in the file from now on`,
      );
    }, wait);
    // Waiting for the file never keeps a process alive that has nothing else to do.
    timer.unref();
  };
  // A Node without node:sqlite will not grow one.
  if (process.getBuiltinModule('node:sqlite')) retry(REOPEN_FIRST_MS);
  // Every call goes to the store in use at that moment, so this lists no method of its own but close.
  return new Proxy(memory, {
    get(_, prop) {
      if (prop === 'close')
        return async () => {
          clearTimeout(timer);
          await current.close();
        };
      const v: unknown = Reflect.get(current, prop);
      return typeof v === 'function' ? v.bind(current) : v;
    },
  });
}

function sqliteStore(db: DatabaseSync, dir: string): Store {
  const now = () => Date.now();
  const expiry = (ttl?: number) => (ttl ? now() + ttl * 1000 : null);
  const q = {
    get: db.prepare('SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)'),
    set: db.prepare(
      'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    ),
    // Replaces a held value only when it expired or has an older `as_of` (or none): one statement, so atomic.
    setIfNewer: db.prepare(
      `INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE kv.expires_at <= ? OR coalesce(json_extract(kv.value, '$.as_of') < json_extract(excluded.value, '$.as_of'), 1)`,
    ),
    purge: db.prepare('DELETE FROM kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?'),
    insertNew: db.prepare('INSERT OR IGNORE INTO kv (key, value, expires_at) VALUES (?, ?, ?)'),
    bump: db.prepare('UPDATE kv SET value = CAST(value AS INTEGER) + ? WHERE key = ?'),
    release: db.prepare('DELETE FROM kv WHERE key = ?'),
    addPoint: db.prepare('INSERT OR REPLACE INTO points (series, t, p) VALUES (?, ?, ?)'),
    range: db.prepare('SELECT t, p FROM points WHERE series = ? AND t >= ? AND t <= ? ORDER BY t'),
    trim: db.prepare('DELETE FROM points WHERE series = ? AND t < ?'),
    bar: db.prepare('SELECT d, o, h, l, c, n, origin, t0, t1 FROM bars WHERE series = ? AND d = ?'),
    putBar: db.prepare('INSERT OR REPLACE INTO bars (series, d, o, h, l, c, n, origin, t0, t1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    bars: db.prepare('SELECT d, o, h, l, c, n, origin, t0, t1 FROM bars WHERE series = ? AND d >= ? AND d <= ? ORDER BY d DESC LIMIT ?'),
    allBars: db.prepare('SELECT d, o, h, l, c, n, origin, t0, t1 FROM bars WHERE series = ? ORDER BY d'),
    trimBars: db.prepare('DELETE FROM bars WHERE series = ? AND d < ?'),
    // A version moves to the later of now and one past itself (lib/store/types.ts, BarsVersion).
    version: db.prepare('SELECT version, epoch FROM bar_versions WHERE series = ?'),
    bumpVersion: db.prepare(
      `INSERT INTO bar_versions (series, version, epoch) VALUES (?, ?, 0)
       ON CONFLICT(series) DO UPDATE SET version = max(excluded.version, bar_versions.version + 1)`,
    ),
    bumpEpoch: db.prepare(
      `INSERT INTO bar_versions (series, version, epoch) VALUES (?, ?, ?)
       ON CONFLICT(series) DO UPDATE SET version = max(excluded.version, bar_versions.version + 1), epoch = max(excluded.epoch, bar_versions.epoch + 1)`,
    ),
    // Each document carries the collection version that wrote it, each removal leaves its id and version behind:
    // docsSince reads only what moved.
    putDoc: db.prepare('INSERT OR REPLACE INTO docs (coll, id, value, v) VALUES (?, ?, ?, ?)'),
    unGone: db.prepare('DELETE FROM doc_gone WHERE coll = ? AND id = ?'),
    gone: db.prepare('INSERT OR REPLACE INTO doc_gone (coll, id, v) VALUES (?, ?, ?)'),
    docsSince: db.prepare('SELECT value FROM docs WHERE coll = ? AND v > ?'),
    goneSince: db.prepare('SELECT id FROM doc_gone WHERE coll = ? AND v > ?'),
    // Only the latest KEPT_REMOVALS removals are remembered; the floor is the newest forgotten one's version.
    oldestKeptGone: db.prepare('SELECT v FROM doc_gone WHERE coll = ? ORDER BY v DESC LIMIT 1 OFFSET ?'),
    forgetGone: db.prepare('DELETE FROM doc_gone WHERE coll = ? AND v <= ?'),
    floor: db.prepare('SELECT v FROM doc_floor WHERE coll = ?'),
    raiseFloor: db.prepare('INSERT INTO doc_floor (coll, v) VALUES (?, ?) ON CONFLICT(coll) DO UPDATE SET v = max(doc_floor.v, excluded.v)'),
    getDoc: db.prepare('SELECT value FROM docs WHERE coll = ? AND id = ?'),
    getDocRev: db.prepare('SELECT value, v FROM docs WHERE coll = ? AND id = ?'),
    deleteDoc: db.prepare('DELETE FROM docs WHERE coll = ? AND id = ?'),
    allDocs: db.prepare('SELECT value FROM docs WHERE coll = ?'),
    docVersion: db.prepare('SELECT version FROM doc_versions WHERE coll = ?'),
    bumpDocs: db.prepare('INSERT INTO doc_versions (coll, version) VALUES (?, 1) ON CONFLICT(coll) DO UPDATE SET version = doc_versions.version + 1'),
    sweep: db.prepare('DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?'),
    sweepCounts: db.prepare('DELETE FROM counts WHERE expires_at <= ?'),
    addCount: db.prepare(
      'INSERT INTO counts (key, name, n, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT(key, name) DO UPDATE SET n = counts.n + excluded.n, expires_at = excluded.expires_at',
    ),
    // A bucket expires as a whole: the newest expiry of its counts is the bucket's.
    counts: db.prepare('SELECT name, n FROM counts WHERE key = ? AND (SELECT max(expires_at) FROM counts WHERE key = ?) > ?'),
  };
  const barAt = (series: string, d: string) => (q.bar.get(series, d) as DailyBar | undefined) ?? null;
  const putBar = (series: string, b: DailyBar) => q.putBar.run(series, b.d, b.o, b.h, b.l, b.c, b.n, b.origin, b.t0, b.t1);
  const value = (key: string) => (q.get.get(key, now()) as { value: string } | undefined)?.value;
  const docVersion = (coll: string) => Number((q.docVersion.get(coll) as { version: number } | undefined)?.version ?? 0);
  const versionOf = (series: string): BarsVersion => {
    const row = q.version.get(series) as BarsVersion | undefined;
    return { version: Number(row?.version ?? 0), epoch: Number(row?.epoch ?? 0) };
  };

  // Read-modify-write runs in one IMMEDIATE transaction, so two processes on one file never interleave.
  const immediate = <R>(fn: () => R): R => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (err) {
      // SQLite may have rolled back already (a full disk does); the first error is the one to report.
      try {
        db.exec('ROLLBACK');
      } catch {
        /* no transaction left */
      }
      throw err;
    }
  };

  // Reads that must agree with each other (a version and its bars) see one snapshot of the file.
  const snapshot = <R>(fn: () => R): R => {
    db.exec('BEGIN');
    try {
      return fn();
    } finally {
      db.exec('COMMIT');
    }
  };

  // Claims and counters leave one expired row per key (per bucket, per client per minute): sweep
  // them out at most once a minute so the file stays small.
  let sweptAt = 0;
  const sweep = () => {
    if (now() - sweptAt < 60_000) return;
    sweptAt = now();
    q.sweep.run(sweptAt);
    q.sweepCounts.run(sweptAt);
  };

  // Failures of the file: the first one of an outage is logged, the next success ends it.
  const fallback = new MemoryCounters();
  let downSince: number | null = null;
  let downReason: string | null = null;
  const guard = <R>(what: string, fn: () => R): R => {
    let result: R;
    try {
      result = fn();
    } catch (err) {
      const reason = reasonOf(err);
      if (downSince === null) {
        downSince = Date.now();
        downReason = reason;
        console.warn(
          `[store] the store in ${JSON.stringify(dir)} failed (${what}: ${reason}): answering from memory and the upstreams; claims and rate-limit counters are per instance until it works again`,
        );
      }
      throw new StoreDownError(what, reason);
    }
    if (downSince !== null) {
      console.warn(`[store] the store in ${JSON.stringify(dir)} works again after ${((Date.now() - downSince) / 1000).toFixed(1)} s`);
      downSince = null;
      downReason = null;
      fallback.clear();
    }
    return result;
  };
  const orMemory = <R>(fn: () => R, memory: () => R): R => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof StoreDownError)) throw err;
      return memory();
    }
  };

  return {
    kind: 'embedded',
    async get<T>(key: string) {
      const v = guard('get', () => value(key));
      return v === undefined ? null : (JSON.parse(v) as T);
    },
    async set(key, v, ttlSeconds) {
      const json = JSON.stringify(v);
      guard('set', () => q.set.run(key, json, expiry(ttlSeconds)));
    },
    async setIfNewer(key, v, ttlSeconds) {
      const json = JSON.stringify(v);
      return guard('setIfNewer', () => Number(q.setIfNewer.run(key, json, expiry(ttlSeconds), now()).changes) === 1);
    },
    async setIfAbsent(key, v, ttlSeconds) {
      const json = JSON.stringify(v);
      return guard('setIfAbsent', () =>
        immediate(() => {
          q.purge.run(key, now());
          return q.insertNew.run(key, json, expiry(ttlSeconds)).changes === 1;
        }),
      );
    },
    async claim(key, ttlSeconds) {
      return orMemory(
        () =>
          guard('claim', () => {
            sweep();
            return immediate(() => {
              q.purge.run(key, now());
              return q.insertNew.run(key, '1', expiry(ttlSeconds)).changes === 1;
            });
          }),
        () => fallback.claim(key, ttlSeconds),
      );
    },
    async release(key) {
      return orMemory(
        () => guard('release', () => void q.release.run(key)),
        () => fallback.release(key),
      );
    },
    async incr(key, ttlSeconds, by = 1) {
      return orMemory(
        () =>
          guard('incr', () => {
            sweep();
            return immediate(() => {
              q.purge.run(key, now());
              if (q.insertNew.run(key, String(by), expiry(ttlSeconds)).changes === 1) return by;
              q.bump.run(by, key);
              return Number(value(key) ?? by);
            });
          }),
        () => fallback.incr(key, ttlSeconds, by),
      );
    },
    async addPoint(series, point) {
      guard('addPoint', () => q.addPoint.run(series, Math.trunc(point.t), point.p));
    },
    async range(series, from, to) {
      return guard('range', () => q.range.all(series, from, to) as unknown as Point[]);
    },
    async trim(series, before) {
      return guard('trim', () => Number(q.trim.run(series, before).changes));
    },
    async addCounts(key, add, ttlSeconds) {
      const expires = now() + ttlSeconds * 1000;
      guard('addCounts', () =>
        immediate(() => {
          sweep();
          for (const [name, n] of Object.entries(add)) q.addCount.run(key, name, n, expires);
        }),
      );
    },
    async counts(keys) {
      return guard('counts', () =>
        snapshot(() =>
          keys.map((key) => {
            const out: Record<string, number> = {};
            for (const row of q.counts.all(key, key, now()) as { name: string; n: number }[]) out[row.name] = Number(row.n);
            return out;
          }),
        ),
      );
    },
    health(): StoreHealth {
      return { degraded: downSince !== null, since: downSince, reason: downReason };
    },
    async putDoc(coll, id, v) {
      const json = JSON.stringify(v);
      guard('putDoc', () =>
        immediate(() => {
          q.bumpDocs.run(coll);
          q.putDoc.run(coll, id, json, docVersion(coll));
          q.unGone.run(coll, id);
        }),
      );
    },
    async getDoc<T>(coll: string, id: string) {
      const row = guard('getDoc', () => q.getDoc.get(coll, id) as { value: string } | undefined);
      return row ? (JSON.parse(row.value) as T) : null;
    },
    async getDocRev<T>(coll: string, id: string) {
      const row = guard('getDocRev', () => q.getDocRev.get(coll, id) as { value: string; v: number } | undefined);
      return row ? { doc: JSON.parse(row.value) as T, rev: Number(row.v) } : null;
    },
    async putDocIf(coll, id, v, rev) {
      const json = JSON.stringify(v);
      return guard('putDocIf', () =>
        immediate(() => {
          const row = q.getDocRev.get(coll, id) as { v: number } | undefined;
          if (!row || Number(row.v) !== rev) return false;
          q.bumpDocs.run(coll);
          q.putDoc.run(coll, id, json, docVersion(coll));
          return true;
        }),
      );
    },
    async deleteDoc(coll, id) {
      return guard('deleteDoc', () =>
        immediate(() => {
          const gone = Number(q.deleteDoc.run(coll, id).changes) > 0;
          if (gone) {
            q.bumpDocs.run(coll);
            q.gone.run(coll, id, docVersion(coll));
            const forgotten = q.oldestKeptGone.get(coll, KEPT_REMOVALS) as { v: number } | undefined;
            if (forgotten) {
              q.forgetGone.run(coll, forgotten.v);
              q.raiseFloor.run(coll, forgotten.v);
            }
          }
          return gone;
        }),
      );
    },
    async docs<T>(coll: string) {
      return guard('docs', () =>
        snapshot(() => {
          const version = Number((q.docVersion.get(coll) as { version: number } | undefined)?.version ?? 0);
          const rows = q.allDocs.all(coll) as { value: string }[];
          return { version, docs: rows.map((r) => JSON.parse(r.value) as T) };
        }),
      );
    },
    async docsVersion(coll) {
      return guard('docsVersion', () => docVersion(coll));
    },
    async docsSince<T>(coll: string, since: number) {
      return guard('docsSince', () =>
        snapshot(() => {
          const version = docVersion(coll);
          const floor = Number((q.floor.get(coll) as { v: number } | undefined)?.v ?? 0);
          if (since > version || since < floor) return null;
          const rows = q.docsSince.all(coll, since) as { value: string }[];
          const removed = (q.goneSince.all(coll, since) as { id: string }[]).map((r) => r.id);
          return { version, docs: rows.map((r) => JSON.parse(r.value) as T), removed };
        }),
      );
    },
    async foldBar(series, date, t, price) {
      return guard('foldBar', () =>
        immediate(() => {
          const before = barAt(series, date);
          const after = fold(before, date, t, price);
          if (after !== before) {
            putBar(series, after);
            q.bumpVersion.run(series, now());
          }
          return after;
        }),
      );
    },
    async importBars(series, bars) {
      // One transaction for the whole file: a failure on any row rolls every row back.
      return guard('importBars', () =>
        immediate(() => {
          const kept: string[] = [];
          for (const bar of bars) {
            if (barAt(series, bar.d)?.origin === 'recorded') kept.push(bar.d);
            else putBar(series, { ...bar, origin: 'imported' });
          }
          if (bars.length > kept.length) q.bumpEpoch.run(series, now(), now());
          return { written: bars.length - kept.length, kept };
        }),
      );
    },
    async bars(series, from, to, last) {
      const rows = guard('bars', () => q.bars.all(series, from, to, last ?? -1) as unknown as DailyBar[]);
      return rows.map((r) => ({ ...r })).reverse();
    },
    async allBars(series) {
      return guard('allBars', () =>
        snapshot(() => {
          const at = versionOf(series);
          const rows = q.allBars.all(series) as unknown as DailyBar[];
          return { at, bars: rows.map((r) => ({ ...r })) };
        }),
      );
    },
    async barsVersion(series) {
      return guard('barsVersion', () => versionOf(series));
    },
    async trimBars(series, before) {
      return guard('trimBars', () =>
        immediate(() => {
          const gone = Number(q.trimBars.run(series, before).changes);
          if (gone) q.bumpEpoch.run(series, now(), now());
          return gone;
        }),
      );
    },
    async close() {
      fallback.clear();
      db.close();
    },
  };
}

/** The store while DATA_DIR cannot hold one: nothing is kept; claims and counters live in this instance. */
class MemoryOnlyStore implements Store {
  readonly kind = 'embedded' as const;
  private readonly counters = new MemoryCounters();
  private readonly since = Date.now();

  constructor(private readonly reason: string) {}

  private down(what: string): never {
    throw new StoreDownError(what, this.reason);
  }
  async get<T>(): Promise<T | null> {
    return this.down('get');
  }
  async set(): Promise<void> {
    this.down('set');
  }
  async setIfNewer(): Promise<boolean> {
    return this.down('setIfNewer');
  }
  async setIfAbsent(): Promise<boolean> {
    return this.down('setIfAbsent');
  }
  async claim(key: string, ttlSeconds: number) {
    return this.counters.claim(key, ttlSeconds);
  }
  async release(key: string) {
    this.counters.release(key);
  }
  async incr(key: string, ttlSeconds: number, by = 1) {
    return this.counters.incr(key, ttlSeconds, by);
  }
  async addPoint(): Promise<void> {
    this.down('addPoint');
  }
  async range(): Promise<Point[]> {
    return this.down('range');
  }
  async trim(): Promise<number> {
    return this.down('trim');
  }
  async foldBar(): Promise<DailyBar> {
    return this.down('foldBar');
  }
  async importBars(): Promise<{ written: number; kept: string[] }> {
    return this.down('importBars');
  }
  async bars(): Promise<DailyBar[]> {
    return this.down('bars');
  }
  async allBars(): Promise<{ at: BarsVersion; bars: DailyBar[] }> {
    return this.down('allBars');
  }
  async barsVersion(): Promise<BarsVersion> {
    return this.down('barsVersion');
  }
  async trimBars(): Promise<number> {
    return this.down('trimBars');
  }
  async addCounts(): Promise<void> {
    this.down('addCounts');
  }
  async putDoc(): Promise<void> {
    this.down('putDoc');
  }
  async getDoc<T>(): Promise<T | null> {
    return this.down('getDoc');
  }
  async getDocRev<T>(): Promise<{ doc: T; rev: number } | null> {
    return this.down('getDocRev');
  }
  async putDocIf(): Promise<boolean> {
    return this.down('putDocIf');
  }
  async deleteDoc(): Promise<boolean> {
    return this.down('deleteDoc');
  }
  async docs<T>(): Promise<{ version: number; docs: T[] }> {
    return this.down('docs');
  }
  async docsVersion(): Promise<number> {
    return this.down('docsVersion');
  }
  async docsSince<T>(): Promise<{ version: number; docs: T[]; removed: string[] } | null> {
    return this.down('docsSince');
  }
  async counts(): Promise<Record<string, number>[]> {
    return this.down('counts');
  }
  health(): StoreHealth {
    return { degraded: true, since: this.since, reason: this.reason };
  }
  async close() {
    this.counters.clear();
  }
}

function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const text = code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
