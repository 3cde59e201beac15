import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Point, Store } from './types';

// SQLite in WAL mode: every write is a transaction, so a crash never leaves a half-written
// value, and several processes on one DATA_DIR share it safely (busy_timeout waits for locks).
// Series rows are keyed by (series, t), so a window query reads only that window.

export function openEmbeddedStore(dir: string): Store {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, 'store.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
    CREATE TABLE IF NOT EXISTS points (series TEXT NOT NULL, t INTEGER NOT NULL, p REAL NOT NULL,
      PRIMARY KEY (series, t)) WITHOUT ROWID;
  `);

  const now = () => Date.now();
  const expiry = (ttl?: number) => (ttl ? now() + ttl * 1000 : null);
  const q = {
    get: db.prepare<[string, number], { value: string }>('SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)'),
    set: db.prepare<[string, string, number | null]>(
      'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    ),
    purge: db.prepare<[string, number]>('DELETE FROM kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?'),
    insertNew: db.prepare<[string, string, number | null]>('INSERT OR IGNORE INTO kv (key, value, expires_at) VALUES (?, ?, ?)'),
    bump: db.prepare<[string]>('UPDATE kv SET value = CAST(value AS INTEGER) + 1 WHERE key = ?'),
    addPoint: db.prepare<[string, number, number]>('INSERT OR REPLACE INTO points (series, t, p) VALUES (?, ?, ?)'),
    range: db.prepare<[string, number, number], Point>('SELECT t, p FROM points WHERE series = ? AND t >= ? AND t <= ? ORDER BY t'),
    trim: db.prepare<[string, number]>('DELETE FROM points WHERE series = ? AND t < ?'),
    sweep: db.prepare<[number]>('DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };

  // Claims and counters leave one expired row per key (per bucket, per client per minute): sweep
  // them out at most once a minute so the file stays small.
  let sweptAt = 0;
  const sweep = () => {
    if (now() - sweptAt < 60_000) return;
    sweptAt = now();
    q.sweep.run(sweptAt);
  };

  // Claim and counter are read-modify-write: run each in one IMMEDIATE transaction.
  const claim = db.transaction((key: string, ttl: number) => {
    q.purge.run(key, now());
    return q.insertNew.run(key, '1', expiry(ttl)).changes === 1;
  });
  const incr = db.transaction((key: string, ttl: number) => {
    q.purge.run(key, now());
    if (q.insertNew.run(key, '1', expiry(ttl)).changes === 1) return 1;
    q.bump.run(key);
    return Number(q.get.get(key, now())?.value ?? 1);
  });

  return {
    kind: 'embedded',
    async get<T>(key: string) {
      const row = q.get.get(key, now());
      return row ? (JSON.parse(row.value) as T) : null;
    },
    async set(key, value, ttlSeconds) {
      q.set.run(key, JSON.stringify(value), expiry(ttlSeconds));
    },
    async claim(key, ttlSeconds) {
      sweep();
      return claim.immediate(key, ttlSeconds);
    },
    async incr(key, ttlSeconds) {
      sweep();
      return incr.immediate(key, ttlSeconds);
    },
    async addPoint(series, point) {
      q.addPoint.run(series, Math.trunc(point.t), point.p);
    },
    async range(series, from, to) {
      return q.range.all(series, from, to);
    },
    async trim(series, before) {
      return q.trim.run(series, before).changes;
    },
    async close() {
      db.close();
    },
  };
}
