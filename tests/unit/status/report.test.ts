import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as status from '@/app/api/v1/status/route';
import { Status } from '@/lib/schemas/status';

// GET /api/v1/status called in process (decisions §26, §29): `store.answers` says whether the store answered this
// time. With the store down, the record this instance read before is shown stale; never read, the answer is unavailable.

beforeAll(() => {
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-status-report-')));
  vi.stubEnv('GOLD_API_URL', 'http://127.0.0.1:9');
});
afterAll(() => vi.unstubAllEnvs());

const ask = async () => {
  const r = await status.GET(new Request('http://t/api/v1/status'));
  return { status: r.status, body: (await r.json()) as Record<string, any> };
};

/** Runs `fn` while the store's reads fail as a store that does not answer. */
async function storeDown<T>(fn: () => Promise<T>): Promise<T> {
  const { getStore, StoreDownError } = await import('@/lib/store');
  const store = getStore();
  const get = store.get;
  store.get = () => Promise.reject(new StoreDownError('get', 'disk I/O error'));
  try {
    return await fn();
  } finally {
    store.get = get;
  }
}

describe('status: whether the store answers', () => {
  it('never read and the store down: unavailable (503), nothing invented', async () => {
    const r = await storeDown(ask);
    expect(r.status).toBe(503);
    expect(r.body.data_state).toMatchObject({ status: 'unavailable', as_of: null });
    expect(r.body.error).toMatch(/does not answer/);
  });

  it('the store answering: answers true, fresh; down: the same reading, stale, answers false; up again: true', async () => {
    const up = await ask();
    expect(up.status).toBe(200);
    const read = Status.parse(up.body);
    expect(read.store).toMatchObject({ kind: 'embedded', answers: true });
    expect(read.data_state.status).toBe('fresh');

    const down = await storeDown(ask);
    expect(down.status).toBe(200);
    const stale = Status.parse(down.body);
    expect(stale.store).toMatchObject({ kind: 'embedded', answers: false });
    expect(stale.data_state).toMatchObject({ status: 'stale', as_of: read.data_state.as_of });
    // The record shown is the reading made while the store answered, not one made up in its absence.
    expect(stale.upstreams).toEqual(read.upstreams);
    expect(stale.record).toEqual(read.record);

    expect(Status.parse((await ask()).body).store.answers).toBe(true);
  });
});
