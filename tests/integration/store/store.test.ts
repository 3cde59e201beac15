import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createClient } from '@redis/client';
import { Redis } from '@upstash/redis';
import { openKvStore } from '@/lib/store/kv';
import { openRedisStore } from '@/lib/store/redis';
import { StoreDownError, type DailyBar, type Store } from '@/lib/store';
import { dayNumber } from '@/lib/store/fold';
import { fixtureBars } from '../../support/bars';
import { sleep } from '../../support/expect';
import { storeContract, type Backend } from '../../support/store-contract';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// The shared store against a real redis-server that asks for a password, over both transports: Upstash's REST
// protocol through the bridge (the real @upstash/redis client end to end) and TCP (REDIS_URL, node-redis). The
// password holds characters a URL must escape, so it is read from the URL as it was written.
const PASSWORD = 'pä55:w@rd/ü';
let redis: RedisServer;
let bridge: UpstashBridge;
beforeAll(async () => {
  redis = await RedisServer.start({ password: PASSWORD });
  bridge = await UpstashBridge.start(redis.url);
});
afterAll(async () => {
  await bridge?.close();
  await redis?.stop();
});

/**
 * Vercel KV over the bridge, with a random key prefix so every test starts from an empty store. The contract is what
 * the store does, not KV's deadline (kv.test.ts times that out on purpose): the bridge answers from this test's own
 * process, which a loaded machine can starve for a second (30 increments at once fell back to memory at 1 s, with a
 * core kept busy), so the deadline here is 5 s.
 */
function kv(): Backend {
  const prefix = `store-test-${crypto.randomBytes(6).toString('hex')}:`;
  const open = () => openKvStore({ url: bridge.url, token: bridge.token, prefix, timeoutMs: 5000 });
  return { open, reopen: open };
}

/** The same server over TCP, as REDIS_URL reaches it (the same deadline, for the same loaded machine). */
function tcp(): Backend {
  const prefix = `store-test-${crypto.randomBytes(6).toString('hex')}:`;
  const open = () => openRedisStore({ url: redis.url, prefix, timeoutMs: 5000 });
  return { open, reopen: open };
}

storeContract('kv', kv);
storeContract('redis over TCP', tcp);

// Stores opened by the outage tests, closed after each.
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe('kv store: outages', () => {
  // A bridge of its own, so stopping it leaves the contract suite alone. The timeout is long enough that a
  // healthy call on a loaded machine never meets it (the bridge answers from this test's own process), and
  // the bounds below leave a loaded machine 1.9 s and 0.5 s (with 800 ms they left 0.7 s and 0.2 s).
  const TIMEOUT_MS = 2000;
  // Bounds with room for a loaded test machine that still tell the behaviours apart: a call that
  // waits on KV once ends before twice the timeout; one that does not wait at all, well before one.
  const ONE_TIMEOUT_MS = TIMEOUT_MS * 2 - 100;
  const NO_WAIT_MS = TIMEOUT_MS / 4;
  let b: UpstashBridge;
  let warn: MockInstance<typeof console.warn> | undefined;
  beforeAll(async () => {
    b = await UpstashBridge.start(redis.url);
  });
  afterAll(async () => {
    await b?.close();
  });
  afterEach(async () => {
    b.hang(false);
    await b.restart();
    warn?.mockRestore();
  });
  const open = (prefix: string, token = b.token) => {
    const s = openKvStore({ url: b.url, token, prefix, timeoutMs: TIMEOUT_MS });
    opened.push(s);
    return s;
  };
  const logged = (text: string) => warn!.mock.calls.filter((c) => String(c[0]).includes(text)).length;
  /** Times a call from before it starts (a call already made may have started its clock, such as its timeout's). */
  async function timed<R>(call: () => Promise<R>): Promise<{ ms: number; result?: R; error?: unknown }> {
    const t0 = performance.now();
    try {
      const result = await call();
      return { ms: performance.now() - t0, result };
    } catch (error) {
      return { ms: performance.now() - t0, error };
    }
  }
  async function until(cond: () => boolean, ms = 4000) {
    const deadline = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(50);
    }
  }

  it('KV stopped: reads fail fast, claims and counters go on per instance, one log line, recovery by itself', async () => {
    const prefix = `outage-${crypto.randomBytes(4).toString('hex')}:`;
    const a = open(prefix);
    const other = open(prefix);
    await a.set('last:gold', { value: 4392 });
    expect(await a.incr('rl:ip', 60)).toBe(1);
    expect(a.health?.()).toEqual({ degraded: false, since: null, reason: null });
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    await b.stop();
    const first = await timed(() => a.get('last:gold'));
    expect(first.error).toBeInstanceOf(StoreDownError);
    expect(first.ms).toBeLessThan(ONE_TIMEOUT_MS);
    const h = a.health!();
    expect(h.degraded).toBe(true);
    expect(h.since).toBeGreaterThan(Date.now() - 5000);
    expect(h.reason).toMatch(/ECONNREFUSED|fetch failed/);
    // While degraded nothing waits on KV and nothing more is logged.
    for (let i = 0; i < 20; i++) {
      const r = await timed(() => a.get('last:gold'));
      expect(r.error).toBeInstanceOf(StoreDownError);
      expect(r.ms).toBeLessThan(NO_WAIT_MS);
    }
    await expect(a.set('x', 1)).rejects.toBeInstanceOf(StoreDownError);
    await expect(a.range('s', 0, 10)).rejects.toBeInstanceOf(StoreDownError);
    // Claims and counters: this instance's memory, starting afresh (the KV count of 1 is out of reach).
    expect(await a.claim('sample:xau:1', 60)).toBe(true);
    expect(await a.claim('sample:xau:1', 60)).toBe(false);
    expect(await a.incr('rl:ip', 60)).toBe(1);
    expect(await a.incr('rl:ip', 60)).toBe(2);
    // Another instance cut off too claims the same bucket: duplicates are possible only during an outage.
    expect(await other.claim('sample:xau:1', 60)).toBe(true);
    expect(logged('KV unavailable')).toBe(2);

    await b.restart();
    await until(() => !a.health!().degraded);
    expect(await a.get('last:gold')).toEqual({ value: 4392 });
    // Shared counting resumes where KV left it; the memory counts are dropped.
    expect(await a.incr('rl:ip', 60)).toBe(2);
    expect(await a.claim('sample:xau:1', 60)).toBe(true);
    expect(logged('KV answering again')).toBe(1);
    expect(logged('KV unavailable')).toBe(2);
  });

  it('KV hanging: a call gives up within the timeout, later calls fail at once, and it recovers', async () => {
    const a = open(`hang-${crypto.randomBytes(4).toString('hex')}:`);
    await a.set('k', 'v');
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    b.hang();
    const [get, incr] = await Promise.all([timed(() => a.get('k')), timed(() => a.incr('rl', 60))]);
    expect(get.error).toBeInstanceOf(StoreDownError);
    expect(get.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(get.ms).toBeLessThan(ONE_TIMEOUT_MS);
    expect(incr.result).toBe(1);
    expect(incr.ms).toBeLessThan(ONE_TIMEOUT_MS);
    for (let i = 0; i < 10; i++) expect((await timed(() => a.claim(`c${i}`, 60))).ms).toBeLessThan(NO_WAIT_MS);
    expect(a.health!().reason).toBe('timed out');
    expect(logged('KV unavailable')).toBe(1);
    b.hang(false);
    await until(() => !a.health!().degraded);
    expect(await a.get('k')).toBe('v');
  });

  it('a wrong token counts as KV down: StoreDownError for reads, memory for counters', async () => {
    const a = open(`token-${crypto.randomBytes(4).toString('hex')}:`, 'not-the-token');
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(a.get('k')).rejects.toBeInstanceOf(StoreDownError);
    expect(await a.incr('rl', 60)).toBe(1);
    expect(a.health!()).toMatchObject({ degraded: true, reason: expect.stringMatching(/Unauthorized/) });
    // The probe keeps being refused: still degraded, still one log line.
    await sleep(1100);
    a.health!();
    await sleep(200);
    expect(a.health!().degraded).toBe(true);
    expect(logged('KV unavailable')).toBe(1);
  });

  it('an unusable KV URL is a degraded store, not a crash', async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const a = openKvStore({ url: 'kv.example without scheme', token: 't', prefix: 'x:', timeoutMs: TIMEOUT_MS });
    opened.push(a);
    await expect(a.get('k')).rejects.toBeInstanceOf(StoreDownError);
    expect(await a.claim('c', 60)).toBe(true);
    expect(a.health!()).toMatchObject({ degraded: true, reason: expect.stringMatching(/unusable KV_REST_API_URL/) });
    expect(logged('KV unavailable')).toBe(1);
  });

  it('key prefixes keep deployments apart', async () => {
    const one = open(`p1-${crypto.randomBytes(4).toString('hex')}:`);
    const two = open(`p2-${crypto.randomBytes(4).toString('hex')}:`);
    await one.set('last:gold', 1);
    expect(await two.get('last:gold')).toBeNull();
    expect(await one.claim('c', 60)).toBe(true);
    expect(await two.claim('c', 60)).toBe(true);
    await one.addPoint('s', { t: 1, p: 1 });
    expect(await two.range('s', 0, 10)).toEqual([]);
  });
});

describe('kv store: an import that fails part-way', () => {
  it('leaves nothing written: the script reads every key it writes before its first write', async () => {
    const prefix = `import-${crypto.randomBytes(4).toString('hex')}:`;
    const raw = new Redis({ url: bridge.url, token: bridge.token, enableTelemetry: false });
    // The date index holds a string, so adding a date to it fails after the bars hash could have been written.
    await raw.set(`${prefix}bi:daily:xau`, 'not a sorted set');
    const spies = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
    try {
      const store = openKvStore({ url: bridge.url, token: bridge.token, prefix, timeoutMs: 1000 });
      opened.push(store);
      const bars = Array.from({ length: 600 }, (_, i) => {
        const d = new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
        return { d, o: 2000, h: 2010, l: 1990, c: 2005, n: 0, origin: 'imported' as const, t0: 0, t1: 0 };
      });
      await expect(store.importBars('daily:xau', bars)).rejects.toThrow();
      expect(await raw.hlen(`${prefix}b:daily:xau`)).toBe(0);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});

describe('kv store: daily bars written before versions (decisions §23)', () => {
  it('are read whole as they lie, at version 0, and the first fold or import versions them: nothing to migrate', async () => {
    const prefix = `unversioned-${crypto.randomBytes(4).toString('hex')}:`;
    const raw = new Redis({ url: bridge.url, token: bridge.token, enableTelemetry: false, automaticDeserialization: false });
    // The layout a deployment from before versions holds (real rows of the broker's file): the bars hash and its
    // date index, no version hash. The second bar as a recorded one would lie there.
    const [mon, tue, wed] = fixtureBars(['2026-04-13', '2026-04-14', '2026-04-15']);
    const recorded = { ...tue, n: 3, origin: 'recorded' as const, t0: 1000, t1: 2000 };
    const encoded = (b: DailyBar) => [b.o, b.h, b.l, b.c, b.n, b.origin, b.t0, b.t1].join(',');
    await raw.hset(`${prefix}b:daily:xau`, { [mon.d]: encoded(mon), [tue.d]: encoded(recorded) });
    await raw.zadd(`${prefix}bi:daily:xau`, { score: dayNumber(mon.d), member: mon.d }, { score: dayNumber(tue.d), member: tue.d });
    const store = openKvStore({ url: bridge.url, token: bridge.token, prefix, timeoutMs: 1000 });
    opened.push(store);
    const before = await store.allBars('daily:xau');
    expect(before).toEqual({ at: { version: 0, epoch: 0 }, bars: [mon, recorded] });
    await store.foldBar('daily:xau', wed.d, 3000, wed.c);
    const after = await store.allBars('daily:xau');
    expect(after.at.version).toBeGreaterThan(0);
    expect(after.at.epoch).toBe(0);
    expect(after.bars.map((b) => b.d)).toEqual([mon.d, tue.d, wed.d]);
  });

  it('a version key Redis cannot read refuses an import before anything is written', async () => {
    const prefix = `badversion-${crypto.randomBytes(4).toString('hex')}:`;
    const raw = new Redis({ url: bridge.url, token: bridge.token, enableTelemetry: false });
    await raw.set(`${prefix}bv:daily:xau`, 'not a hash');
    const spies = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
    try {
      const store = openKvStore({ url: bridge.url, token: bridge.token, prefix, timeoutMs: 1000 });
      opened.push(store);
      await expect(store.importBars('daily:xau', fixtureBars(['2026-04-15']))).rejects.toThrow();
      expect(await raw.hlen(`${prefix}b:daily:xau`)).toBe(0);
      expect(await raw.zcard(`${prefix}bi:daily:xau`)).toBe(0);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});

describe('redis store over TCP: one connection, outages, passwords, TLS', () => {
  // A server of its own, so pausing or stopping it leaves the contract suites alone.
  const TIMEOUT_MS = 1500;
  let own: RedisServer;
  /** A client of the test's own, to read the server's INFO and plant a key. */
  let raw: { sendCommand(args: string[]): Promise<unknown>; destroy(): void };
  let warn: MockInstance<typeof console.warn>;
  let error: MockInstance<typeof console.error>;
  beforeAll(async () => {
    own = await RedisServer.start({ password: PASSWORD });
    const client = createClient({ url: own.url, RESP: 2 });
    client.on('error', () => {});
    raw = await client.connect();
  });
  afterAll(async () => {
    raw?.destroy();
    own?.resume();
    await own?.stop();
  });
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
    error.mockRestore();
  });
  const prefix = () => `tcp-${crypto.randomBytes(4).toString('hex')}:`;
  const open = (url = own.url, keys = prefix()) => {
    const s = openRedisStore({ url, prefix: keys, timeoutMs: TIMEOUT_MS });
    opened.push(s);
    return s;
  };
  const logged = (spy: MockInstance<(...args: unknown[]) => void>, text: string) => spy.mock.calls.filter((c) => String(c[0]).includes(text)).length;
  /** A field of the server's INFO (`connected_clients`, or `cmdstat_get` whose `calls=` is read). */
  async function info(section: string, field: string): Promise<number> {
    const text = String(await raw.sendCommand(['INFO', section]));
    const line = text.split('\r\n').find((l) => l.startsWith(`${field}:`));
    return line ? Number(/(?:calls=)?(\d+)/.exec(line.slice(field.length + 1))![1]) : 0;
  }

  it('one connection per store, however many calls run at once', async () => {
    const before = await info('clients', 'connected_clients');
    const a = open();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        [
          () => a.set(`k${i}`, i),
          () => a.get(`k${i}`),
          () => a.incr('rl', 60),
          () => a.claim(`c${i}`, 60),
          () => a.foldBar('b', '2026-11-18', i, 100 + i),
        ][i % 5](),
      ),
    );
    expect(await info('clients', 'connected_clients')).toBe(before + 1);
  });

  it('Redis paused: the call under way gives up at the timeout, the next ones are never sent, one log line; back by itself', async () => {
    const keys = prefix();
    const a = open(own.url, keys);
    await a.set('last:gold', { value: 4392 });
    expect(await a.incr('rl:ip', 60)).toBe(1);
    const getsBefore = await info('commandstats', 'cmdstat_get');
    own.pause();
    try {
      // Redis holds every command unanswered: a call that waited on it would never settle.
      await expect(a.get('last:gold')).rejects.toBeInstanceOf(StoreDownError);
      expect(a.health!()).toMatchObject({ degraded: true, reason: 'timed out' });
      for (let i = 0; i < 20; i++) await expect(a.get('last:gold')).rejects.toBeInstanceOf(StoreDownError);
      await expect(a.set('x', 1)).rejects.toBeInstanceOf(StoreDownError);
      // Claims and counters: this instance's memory, starting afresh (Redis's count of 1 is out of reach).
      expect(await a.claim('sample:xau:1', 60)).toBe(true);
      expect(await a.claim('sample:xau:1', 60)).toBe(false);
      expect(await a.incr('rl:ip', 60)).toBe(1);
      expect(logged(warn, 'Redis unavailable')).toBe(1);
    } finally {
      own.resume();
    }
    await expect.poll(() => a.health!().degraded).toBe(false);
    // Redis ran what was on the wire once it answered again: the one GET that timed out, none of the twenty after it.
    expect((await info('commandstats', 'cmdstat_get')) - getsBefore).toBe(1);
    expect(await a.get('last:gold')).toEqual({ value: 4392 });
    // Shared counting resumes where Redis left it; the memory counts are dropped.
    expect(await a.incr('rl:ip', 60)).toBe(2);
    expect(await a.claim('sample:xau:1', 60)).toBe(true);
    expect(logged(warn, 'Redis answering again')).toBe(1);
    expect(logged(warn, 'Redis unavailable')).toBe(1);
  });

  it('Redis gone: a command queued for the connection leaves the queue at the timeout and never runs later; it reconnects by itself', async () => {
    const gone = await RedisServer.start({ password: PASSWORD });
    const keys = prefix();
    const a = open(gone.url, keys);
    await a.set('k', 'before');
    await gone.stop();
    let back: RedisServer | null = null;
    try {
      await expect(a.set('k', 'during')).rejects.toBeInstanceOf(StoreDownError);
      // An instance that starts while the server is gone: its first command waits in node-redis's queue, then gives up.
      const b = open(gone.url, keys);
      await expect(b.set('k', 'queued')).rejects.toBeInstanceOf(StoreDownError);
      expect(b.health!().reason).toMatch(/^timed out, not connected: .*ECONNREFUSED/);
      back = await RedisServer.start({ password: PASSWORD, port: gone.port });
      await expect.poll(() => a.health!().degraded).toBe(false);
      await expect.poll(() => b.health!().degraded).toBe(false);
      // The server came back empty (no persistence), and the command queued during the outage did not run on it.
      expect(await b.get('k')).toBeNull();
      await b.set('k', 'after');
      expect(await a.get('k')).toBe('after');
    } finally {
      await back?.stop();
    }
  });

  it('a wrong password counts as Redis down, named in the log: StoreDownError for reads, memory for counters', async () => {
    const a = open(own.urlWith('not-the-password'));
    await expect(a.get('k')).rejects.toBeInstanceOf(StoreDownError);
    expect(await a.incr('rl', 60)).toBe(1);
    // Redis's answer to the command sent with the refused AUTH, or the refusal itself once the connection is retried.
    expect(a.health!()).toMatchObject({ degraded: true, reason: expect.stringMatching(/^NOAUTH Authentication required|WRONGPASS/) });
    expect(logged(warn, 'Redis unavailable')).toBe(1);
  });

  it('an unusable REDIS_URL is a degraded store, not a crash', async () => {
    const a = open('redis-server.example:6379');
    await expect(a.get('k')).rejects.toBeInstanceOf(StoreDownError);
    expect(await a.claim('c', 60)).toBe(true);
    expect(a.health!()).toMatchObject({ degraded: true, reason: expect.stringMatching(/^unusable REDIS_URL/) });
  });

  it('a key of the wrong type is a defect, not an outage: logged once, a plain Error for a series, Redis stays in use', async () => {
    const keys = prefix();
    await raw.sendCommand(['SET', `${keys}s:intraday:xau`, 'not a sorted set']);
    const a = open(own.url, keys);
    for (let i = 0; i < 2; i++) {
      const read = await a.range('intraday:xau', 0, 10).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(Error);
      expect(read).not.toBeInstanceOf(StoreDownError);
    }
    expect(error.mock.calls.map((c) => String(c[0]).split(' Operation')[0])).toEqual(['[store] Redis refused a command (range: WRONGTYPE']);
    expect(a.health!().degraded).toBe(false);
    expect(logged(warn, 'Redis unavailable')).toBe(0);
  });

  it('rediss:// speaks TLS and checks the certificate: refused until its CA is trusted, then the store works', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-tls-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    // A self-signed certificate for 127.0.0.1, its own CA.
    execFileSync('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-keyout', key, '-out', cert, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ]);
    const secure = await RedisServer.start({ password: PASSWORD, tls: { cert, key } });
    const trusted = tls.getCACertificates('default');
    try {
      expect(secure.url).toMatch(/^rediss:/);
      const untrusted = open(secure.url);
      await expect(untrusted.get('k')).rejects.toBeInstanceOf(StoreDownError);
      expect(untrusted.health!().reason).toMatch(/self.signed certificate/);
      tls.setDefaultCACertificates([...trusted, fs.readFileSync(cert, 'utf8')]);
      const a = open(secure.url);
      await a.set('last:gold', { value: 4392 });
      expect(await a.get('last:gold')).toEqual({ value: 4392 });
      expect(await a.incr('rl', 60)).toBe(1);
      expect(await a.setIfAbsent('once', 1, 60)).toBe(true);
      expect(a.health!().degraded).toBe(false);
    } finally {
      tls.setDefaultCACertificates(trusted);
      await secure.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
