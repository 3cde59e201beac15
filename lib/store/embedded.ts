import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fold } from './fold';
import type { DailyBar, Point, Store } from './types';

// SQLite in WAL mode, through Node's own `node:sqlite` (no native addon to build or match to the
// runtime): every write is a transaction, so a crash never leaves a half-written value, and several
// processes on one DATA_DIR share it safely (busy_timeout waits for locks). Series rows are keyed by
// (series, t), so a window query reads only that window.

export function openEmbeddedStore(dir: string): Store {
  fs.mkdirSync(dir, { recursive: true });
  const db = new DatabaseSync(path.join(dir, 'store.sqlite'));
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA busy_timeout = 5000;
    CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
    CREATE TABLE IF NOT EXISTS points (series TEXT NOT NULL, t INTEGER NOT NULL, p REAL NOT NULL,
      PRIMARY KEY (series, t)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS bars (series TEXT NOT NULL, d TEXT NOT NULL, o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL,
      c REAL NOT NULL, n INTEGER NOT NULL, origin TEXT NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,
      PRIMARY KEY (series, d)) WITHOUT ROWID;
  `);

  const now = () => Date.now();
  const expiry = (ttl?: number) => (ttl ? now() + ttl * 1000 : null);
  const q = {
    get: db.prepare('SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)'),
    set: db.prepare(
      'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    ),
    purge: db.prepare('DELETE FROM kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?'),
    insertNew: db.prepare('INSERT OR IGNORE INTO kv (key, value, expires_at) VALUES (?, ?, ?)'),
    bump: db.prepare('UPDATE kv SET value = CAST(value AS INTEGER) + 1 WHERE key = ?'),
    addPoint: db.prepare('INSERT OR REPLACE INTO points (series, t, p) VALUES (?, ?, ?)'),
    range: db.prepare('SELECT t, p FROM points WHERE series = ? AND t >= ? AND t <= ? ORDER BY t'),
    trim: db.prepare('DELETE FROM points WHERE series = ? AND t < ?'),
    bar: db.prepare('SELECT d, o, h, l, c, n, origin, t0, t1 FROM bars WHERE series = ? AND d = ?'),
    putBar: db.prepare('INSERT OR REPLACE INTO bars (series, d, o, h, l, c, n, origin, t0, t1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    bars: db.prepare('SELECT d, o, h, l, c, n, origin, t0, t1 FROM bars WHERE series = ? AND d >= ? AND d <= ? ORDER BY d DESC LIMIT ?'),
    trimBars: db.prepare('DELETE FROM bars WHERE series = ? AND d < ?'),
    sweep: db.prepare('DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };
  const barAt = (series: string, d: string) => (q.bar.get(series, d) as DailyBar | undefined) ?? null;
  const putBar = (series: string, b: DailyBar) => q.putBar.run(series, b.d, b.o, b.h, b.l, b.c, b.n, b.origin, b.t0, b.t1);
  const value = (key: string) => (q.get.get(key, now()) as { value: string } | undefined)?.value;

  // Read-modify-write runs in one IMMEDIATE transaction, so two processes on one file never interleave.
  const immediate = <R>(fn: () => R): R => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  };

  // Claims and counters leave one expired row per key (per bucket, per client per minute): sweep
  // them out at most once a minute so the file stays small.
  let sweptAt = 0;
  const sweep = () => {
    if (now() - sweptAt < 60_000) return;
    sweptAt = now();
    q.sweep.run(sweptAt);
  };

  return {
    kind: 'embedded',
    async get<T>(key: string) {
      const v = value(key);
      return v === undefined ? null : (JSON.parse(v) as T);
    },
    async set(key, v, ttlSeconds) {
      q.set.run(key, JSON.stringify(v), expiry(ttlSeconds));
    },
    async claim(key, ttlSeconds) {
      sweep();
      return immediate(() => {
        q.purge.run(key, now());
        return q.insertNew.run(key, '1', expiry(ttlSeconds)).changes === 1;
      });
    },
    async incr(key, ttlSeconds) {
      sweep();
      return immediate(() => {
        q.purge.run(key, now());
        if (q.insertNew.run(key, '1', expiry(ttlSeconds)).changes === 1) return 1;
        q.bump.run(key);
        return Number(value(key) ?? 1);
      });
    },
    async addPoint(series, point) {
      q.addPoint.run(series, Math.trunc(point.t), point.p);
    },
    async range(series, from, to) {
      return q.range.all(series, from, to) as unknown as Point[];
    },
    async trim(series, before) {
      return Number(q.trim.run(series, before).changes);
    },
    async foldBar(series, date, t, price) {
      return immediate(() => {
        const before = barAt(series, date);
        const after = fold(before, date, t, price);
        if (after !== before) putBar(series, after);
        return after;
      });
    },
    async importBar(series, bar) {
      return immediate(() => {
        if (barAt(series, bar.d)?.origin === 'recorded') return false;
        putBar(series, { ...bar, origin: 'imported' });
        return true;
      });
    },
    async bars(series, from, to, last) {
      const rows = q.bars.all(series, from, to, last ?? -1) as unknown as DailyBar[];
      return rows.map((r) => ({ ...r })).reverse();
    },
    async trimBars(series, before) {
      return Number(q.trimBars.run(series, before).changes);
    },
    async close() {
      db.close();
    },
  };
}
