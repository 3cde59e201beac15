import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '@/lib/store/embedded';
import { openKvStore } from '@/lib/store/kv';
import type { Store } from '@/lib/store';
import { sleep } from './support/expect';
import { RedisServer, UpstashBridge } from './support/upstash-bridge';

// The KV backend runs against a real redis-server through the Upstash REST bridge, so the real
// @upstash/redis client is exercised end to end.
let redis: RedisServer;
let bridge: UpstashBridge;
beforeAll(async () => {
  redis = await RedisServer.start();
  bridge = await UpstashBridge.start(redis.url);
});
afterAll(async () => {
  await bridge?.close();
  await redis?.stop();
});

// One contract, every backend: each backend opens a fresh, empty store and can reopen it.
interface Backend {
  open(): Store;
  reopen(): Store;
}
function embedded(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-store-'));
  return { open: () => openEmbeddedStore(dir), reopen: () => openEmbeddedStore(dir) };
}

/** Vercel KV over the bridge, with a random key prefix so every test starts from an empty store. */
function kv(): Backend {
  const prefix = `store-test-${crypto.randomBytes(6).toString('hex')}:`;
  const open = () => openKvStore({ url: bridge.url, token: bridge.token, prefix, timeoutMs: 1000 });
  return { open, reopen: open };
}

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe.each([
  ['embedded', embedded],
  ['kv', kv],
])('store contract: %s', (_name, make) => {
  const setup = () => {
    const backend = make();
    const store = backend.open();
    opened.push(store);
    return { backend, store };
  };

  it('keeps JSON values and survives reopening', async () => {
    const { backend, store } = setup();
    expect(await store.get('missing')).toBeNull();
    await store.set('last:gold', { value: 4392, asOf: 1, fetchedAt: 2 });
    await store.close();
    opened.pop();
    const again = backend.reopen();
    opened.push(again);
    expect(await again.get('last:gold')).toEqual({ value: 4392, asOf: 1, fetchedAt: 2 });
  });

  it('expires values with a TTL', async () => {
    const { store } = setup();
    await store.set('short', 'x', 1);
    expect(await store.get('short')).toBe('x');
    await sleep(1100);
    expect(await store.get('short')).toBeNull();
  });

  it('claim: exactly one of many concurrent callers wins, again after expiry', async () => {
    const { store } = setup();
    const wins = await Promise.all(Array.from({ length: 20 }, () => store.claim('sample:xau:1', 1)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    await sleep(1100);
    expect(await store.claim('sample:xau:1', 1)).toBe(true);
  });

  it('claim is shared between two handles on one store', async () => {
    const { backend, store } = setup();
    const other = backend.reopen();
    opened.push(other);
    expect(await store.claim('k', 60)).toBe(true);
    expect(await other.claim('k', 60)).toBe(false);
  });

  it('incr counts within a window and restarts after it', async () => {
    const { store } = setup();
    for (let i = 1; i <= 5; i++) expect(await store.incr('rl:1.2.3.4', 1)).toBe(i);
    await sleep(1100);
    expect(await store.incr('rl:1.2.3.4', 1)).toBe(1);
  });

  it('series: window reads, ordering, replacement at equal t, trimming', async () => {
    const { store } = setup();
    for (const t of [500, 100, 300, 200, 400]) await store.addPoint('intraday:xau', { t, p: t / 100 });
    await store.addPoint('intraday:xag', { t: 300, p: 30 });
    expect(await store.range('intraday:xau', 200, 400)).toEqual([
      { t: 200, p: 2 },
      { t: 300, p: 3 },
      { t: 400, p: 4 },
    ]);
    await store.addPoint('intraday:xau', { t: 300, p: 3.5 });
    expect((await store.range('intraday:xau', 300, 300))[0].p).toBe(3.5);
    expect(await store.trim('intraday:xau', 300)).toBe(2);
    expect((await store.range('intraday:xau', 0, 1000)).map((p) => p.t)).toEqual([300, 400, 500]);
    expect(await store.range('intraday:xag', 0, 1000)).toEqual([{ t: 300, p: 30 }]);
  });
});
