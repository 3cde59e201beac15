import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as health from '@/app/api/health/route';
import pkg from '@/package.json';

// GET /api/health is about the instance (decisions §29), called in process: 200 while it can answer, saying
// `degraded` with the store down; 503 only once the server is stopping.

beforeAll(() => {
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-health-')));
});
afterAll(() => vi.unstubAllEnvs());

const ask = async () => {
  const r = await health.GET(new Request('http://t/api/health'));
  return { status: r.status, cache: r.headers.get('cache-control'), body: (await r.json()) as unknown };
};

describe('health', () => {
  it('200 ok with the store kind while the store answers', async () => {
    expect(await ask()).toEqual({ status: 200, cache: 'no-store', body: { status: 'ok', store: 'embedded', version: pkg.version } });
  });

  it('200 degraded with store "down" while the store does not answer, ok again once it does', async () => {
    const { getStore, StoreDownError } = await import('@/lib/store');
    const store = getStore();
    const get = store.get;
    store.get = () => Promise.reject(new StoreDownError('get', 'disk I/O error'));
    try {
      expect(await ask()).toEqual({ status: 200, cache: 'no-store', body: { status: 'degraded', store: 'down', version: pkg.version } });
    } finally {
      store.get = get;
    }
    expect((await ask()).body).toMatchObject({ status: 'ok', store: 'embedded' });
  });

  it('503 once the server is told to stop', async () => {
    const { runShutdown } = await import('@/lib/core/shutdown.mjs');
    runShutdown();
    try {
      expect(await ask()).toEqual({ status: 503, cache: 'no-store', body: { status: 'unavailable', store: 'embedded', version: pkg.version } });
    } finally {
      (globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.stopping')] = false;
    }
  });
});
