import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { StoreDownError } from '@/lib/store/types';
import { openEmbeddedStore } from '@/lib/store/embedded';
import { fixtureBars } from '../../support/bars';
import { storeContract, type Backend } from '../../support/store-contract';

// The embedded store (SQLite in a temp folder): the store contract, and its housekeeping.

function embedded(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-store-'));
  return { open: () => openEmbeddedStore(dir), reopen: () => openEmbeddedStore(dir) };
}

storeContract('embedded', embedded);

describe('embedded store: housekeeping', () => {
  it('expired claim and counter rows are swept out, at most once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-sweep-'));
    const store = openEmbeddedStore(dir);
    try {
      vi.setSystemTime(new Date('2026-11-23T00:00:00Z'));
      for (let i = 0; i < 50; i++) await store.incr(`rl:mcp:10.0.0.${i}:1`, 60);
      for (let i = 0; i < 50; i++) await store.claim(`sample:xau:120:${i}`, 240);
      const rows = async () => {
        const { DatabaseSync } = await import('node:sqlite');
        const db = new DatabaseSync(path.join(dir, 'store.sqlite'), { readOnly: true });
        try {
          return (db.prepare('SELECT COUNT(*) AS n FROM kv').get() as { n: number }).n;
        } finally {
          db.close();
        }
      };
      expect(await rows()).toBe(100);
      vi.setSystemTime(new Date('2026-11-23T00:05:00Z'));
      await store.incr('rl:mcp:10.0.0.200:6', 60);
      expect(await rows()).toBe(1);
    } finally {
      await store.close();
      vi.useRealTimers();
    }
  });
});

describe('embedded store: a DATA_DIR or disk that cannot be used', () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
    vi.restoreAllMocks();
  });
  const logged = () => warn.mock.calls.map((c) => String(c[0]));

  it('a DATA_DIR under a regular file is named once, and the store runs on memory', async () => {
    // Tests run as root, where permissions block nothing: a folder inside a file cannot exist for anyone.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bad-')), 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const dir = path.join(file, 'data');
    const store = openEmbeddedStore(dir);
    try {
      expect(logged()).toHaveLength(1);
      expect(logged()[0]).toContain(`DATA_DIR "${dir}" cannot hold the store`);
      expect(logged()[0]).toContain('ENOTDIR');
      await expect(store.get('served:gold')).rejects.toBeInstanceOf(StoreDownError);
      await expect(store.set('served:gold', 1)).rejects.toBeInstanceOf(StoreDownError);
      await expect(store.range('xau', 0, 1)).rejects.toBeInstanceOf(StoreDownError);
      // Claims and counters still work, for this instance alone.
      expect(await store.claim('sample:xau:120:1', 240)).toBe(true);
      expect(await store.claim('sample:xau:120:1', 240)).toBe(false);
      expect(await store.incr('rl:mcp:10.0.0.1:1', 60)).toBe(1);
      expect(await store.incr('rl:mcp:10.0.0.1:1', 60)).toBe(2);
      expect(store.health?.()).toMatchObject({ degraded: true });
      expect(logged()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('a Node without node:sqlite degrades the same way', async () => {
    const real = process.getBuiltinModule;
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) => (id === 'node:sqlite' ? undefined : real(id))) as typeof real);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-nosqlite-'));
    const store = openEmbeddedStore(dir);
    try {
      expect(logged()).toHaveLength(1);
      expect(logged()[0]).toMatch(/cannot hold the store \(this Node \(v[\d.]+\) has no node:sqlite\)/);
      await expect(store.get('served:gold')).rejects.toBeInstanceOf(StoreDownError);
      expect(await store.incr('rl:mcp:10.0.0.1:1', 60)).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('a full disk is logged once, claims and counters use memory, and the store resumes when there is room', async () => {
    // A real SQLITE_FULL: the store's own connection is capped at the pages its file has now.
    const sqlite = process.getBuiltinModule('node:sqlite');
    const connections: InstanceType<typeof sqlite.DatabaseSync>[] = [];
    class Watched extends sqlite.DatabaseSync {
      constructor(...args: ConstructorParameters<typeof sqlite.DatabaseSync>) {
        super(...args);
        connections.push(this);
      }
    }
    const real = process.getBuiltinModule;
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
      id === 'node:sqlite' ? { ...sqlite, DatabaseSync: Watched } : real(id)) as typeof real);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-full-'));
    const store = openEmbeddedStore(dir);
    try {
      await store.set('served:gold', 4012.5);
      const db = connections[0]!;
      const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
      db.exec(`PRAGMA max_page_count = ${pages}`);
      const big = 'x'.repeat(64 * 1024);
      await expect(store.set('big', big)).rejects.toBeInstanceOf(StoreDownError);
      await expect(store.set('big', big)).rejects.toBeInstanceOf(StoreDownError);
      expect(logged().filter((l) => l.includes('database or disk is full'))).toHaveLength(1);
      expect(store.health?.()).toMatchObject({ degraded: true });
      // A counter keeps counting from memory while the file refuses writes (or from the file, if it still fits).
      expect(await store.incr('rl:mcp:10.0.0.9:1', 60)).toBe(1);
      expect(await store.incr('rl:mcp:10.0.0.9:1', 60)).toBe(2);

      db.exec('PRAGMA max_page_count = 1073741823');
      await store.set('big', big);
      expect(await store.get('big')).toBe(big);
      expect(await store.get('served:gold')).toBe(4012.5);
      expect(store.health?.()).toMatchObject({ degraded: false, since: null });
      expect(logged().some((l) => l.includes('works again'))).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('embedded store: a file another process holds at start', () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
  });
  const logged = () => warn.mock.calls.map((c) => String(c[0]));

  /** Another process opens the store file and holds its write lock (BEGIN EXCLUSIVE) for `ms`; resolves once it holds it. */
  async function holdLock(dir: string, ms: number): Promise<{ released: Promise<unknown> }> {
    const script = `
      const db = new (require('node:sqlite').DatabaseSync)(process.argv[1]);
      db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (x)');
      console.log('locked');
      setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
    const child = spawn(process.execPath, ['-e', script, path.join(dir, 'store.sqlite'), String(ms)], { stdio: ['ignore', 'pipe', 'ignore'] });
    const released = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      void released.then((code) => reject(new Error(`the lock holder exited (${String(code)}) before it held the lock`)));
    });
    return { released };
  }

  /** A value as the file holds it, read by a connection of its own. */
  function inFile(dir: string, key: string): unknown {
    const db = new (process.getBuiltinModule('node:sqlite').DatabaseSync)(path.join(dir, 'store.sqlite'), { readOnly: true });
    try {
      const row = db.prepare('SELECT value FROM kv WHERE key = ?').get(key) as { value: string } | undefined;
      return row ? JSON.parse(row.value) : undefined;
    } finally {
      db.close();
    }
  }

  it('waits for the lock (busy_timeout is set before anything else) and opens the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-locked-'));
    const { released } = await holdLock(dir, 700);
    const t0 = Date.now();
    const store = openEmbeddedStore(dir);
    try {
      // Opened only once the other process let go, not degraded.
      expect(Date.now() - t0).toBeGreaterThan(300);
      expect(store.health?.()).toMatchObject({ degraded: false });
      expect(logged()).toEqual([]);
      await store.set('served:gold', 4012.5);
      expect(inFile(dir, 'served:gold')).toBe(4012.5);
    } finally {
      await store.close();
      await released;
    }
  });

  it('held past the wait: runs on memory, then opens the file in the background without a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-locked-'));
    // Held past the 200 ms the open waits, let go before the first retry a second later.
    const { released } = await holdLock(dir, 600);
    const store = openEmbeddedStore(dir, { busyTimeoutMs: 200 });
    try {
      expect(logged()).toHaveLength(1);
      expect(logged()[0]).toContain(`DATA_DIR "${dir}" cannot hold the store (`);
      expect(logged()[0]).toContain('database is locked');
      expect(store.health?.()).toMatchObject({ degraded: true });
      await expect(store.set('served:gold', 1)).rejects.toBeInstanceOf(StoreDownError);
      expect(await store.incr('rl:mcp:10.0.0.1:1', 60)).toBe(1);

      await released;
      await expect.poll(() => store.health?.().degraded, { timeout: 10_000 }).toBe(false);
      expect(logged()).toHaveLength(2);
      expect(logged()[1]).toMatch(/DATA_DIR ".*" holds the store again after [\d.]+ s/);
      await store.set('served:gold', 4012.5);
      expect(await store.get('served:gold')).toBe(4012.5);
      expect(inFile(dir, 'served:gold')).toBe(4012.5);
      // Counting is the file's now: the memory count of the outage is dropped.
      expect(await store.incr('rl:mcp:10.0.0.1:1', 60)).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('embedded store: a file from before bar versions (decisions §23)', () => {
  it('opens with its bars as they lie, at version 0; the first write versions the series', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-unversioned-'));
    const [tue, wed] = fixtureBars(['2026-04-14', '2026-04-15']);
    const { DatabaseSync } = await import('node:sqlite');
    const old = new DatabaseSync(path.join(dir, 'store.sqlite'));
    // The bars table as earlier releases created it, with one imported bar (a real row), and no versions table.
    old.exec(`CREATE TABLE bars (series TEXT NOT NULL, d TEXT NOT NULL, o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL,
      c REAL NOT NULL, n INTEGER NOT NULL, origin TEXT NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,
      PRIMARY KEY (series, d)) WITHOUT ROWID`);
    old.prepare('INSERT INTO bars VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0, 0)').run('daily:xau', tue.d, tue.o, tue.h, tue.l, tue.c, 'imported');
    old.close();
    const store = openEmbeddedStore(dir);
    try {
      expect(await store.allBars('daily:xau')).toEqual({ at: { version: 0, epoch: 0 }, bars: [tue] });
      await store.foldBar('daily:xau', wed.d, 1000, wed.c);
      expect((await store.barsVersion('daily:xau')).version).toBeGreaterThan(0);
      expect((await store.allBars('daily:xau')).bars.map((b) => b.d)).toEqual([tue.d, wed.d]);
    } finally {
      await store.close();
    }
  });
});
