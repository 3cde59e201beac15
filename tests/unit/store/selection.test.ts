import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { getStore, storeStatus } from '@/lib/store';

// Which store the environment selects (decisions §34): REDIS_URL, else KV_REST_API_URL with KV_REST_API_TOKEN, else
// the embedded file; REDIS_URL wins over the KV variables and the start-up log says so, naming where the Redis is and
// never its password. No server is reached here: the stores open without waiting on one.

const SLOT = Symbol.for('goldapi.store');
const slot = globalThis as { [SLOT]?: { close(): Promise<void> } };
let log: MockInstance<typeof console.log>;
let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-selection-')));
  for (const name of ['REDIS_URL', 'KV_REST_API_URL', 'KV_REST_API_TOKEN']) vi.stubEnv(name, '');
});
afterEach(async () => {
  await slot[SLOT]?.close();
  delete slot[SLOT];
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
const said = () => [...log.mock.calls, ...warn.mock.calls].map((c) => String(c[0]));

describe('store selection', () => {
  it('nothing set: the embedded store, and no line about a shared one', () => {
    expect(getStore().kind).toBe('embedded');
    expect(said().filter((l) => l.includes('shared store'))).toEqual([]);
  });

  it('KV_REST_API_URL and KV_REST_API_TOKEN: the Upstash store', () => {
    vi.stubEnv('KV_REST_API_URL', 'http://127.0.0.1:9');
    vi.stubEnv('KV_REST_API_TOKEN', 't');
    expect(getStore().kind).toBe('kv');
  });

  it('REDIS_URL: Redis over TCP, named in the log by where it is, never by its password', () => {
    vi.stubEnv('REDIS_URL', 'rediss://goldapi:pa%40ss%3Aword@redis.internal:6380/2');
    expect(getStore().kind).toBe('redis');
    expect(storeStatus().store).toBe('redis');
    expect(said()).toEqual(['[store] shared store: Redis at redis.internal:6380/2 over TLS (REDIS_URL)']);
    expect(said().join('\n')).not.toMatch(/pa%40ss|pa@ss|goldapi:/);
  });

  it('REDIS_URL and the KV variables: REDIS_URL wins, and the start-up log says so and why', () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:1');
    vi.stubEnv('KV_REST_API_URL', 'http://127.0.0.1:9');
    vi.stubEnv('KV_REST_API_TOKEN', 't');
    expect(getStore().kind).toBe('redis');
    expect(said()).toEqual([
      '[store] shared store: Redis at 127.0.0.1:1 (REDIS_URL); KV_REST_API_URL and KV_REST_API_TOKEN are set too and not used (REDIS_URL wins when both are set: it names the Redis chosen for this deployment)',
    ]);
  });

  it('a REDIS_URL that is not redis:// or rediss://: the Redis store, degraded from the start, saying why', () => {
    vi.stubEnv('REDIS_URL', 'https://redis.example:6379');
    const store = getStore();
    expect(store.kind).toBe('redis');
    expect(store.health?.()).toMatchObject({ degraded: true, reason: expect.stringMatching(/^unusable REDIS_URL: https: is not redis: or rediss:/) });
    expect(storeStatus().store).toBe('redis-degraded');
    expect(said()[0]).toBe('[store] shared store: Redis at an unusable URL (REDIS_URL)');
  });
});
