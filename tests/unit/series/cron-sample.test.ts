import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';

// GET /api/cron/sample called in process (Request in, Response out) on a trading day, with one metal's
// point write refused by the store as a KV command error would be (decisions §25): the route answers only
// once every other metal's write is done, names the failure, and the next run records that metal.

const SECRET = 'cron-test-secret';
let fake: FakeUpstream;
let route: typeof import('@/app/api/cron/sample/route');
let lib: { store: typeof import('@/lib/store'); sampler: typeof import('@/lib/series/sampler') };

beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), marketClockAt(OPEN_DAY), {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-cron-')),
    CRON_SECRET: SECRET,
    // One bucket for the whole file: the second run falls into the first one's bucket.
    SAMPLE_INTERVAL_S: '3600',
  });
  route = await import('@/app/api/cron/sample/route');
  lib = { store: await import('@/lib/store'), sampler: await import('@/lib/series/sampler') };
});
afterAll(() => fake.close());

const run = async () => {
  const res = await route.GET(new Request('http://t/api/cron/sample', { headers: { authorization: `Bearer ${SECRET}` } }));
  return { status: res.status, body: (await res.json()) as { samples: Record<string, string> } };
};
const points = (symbol: 'xau' | 'xag' | 'xpt' | 'xpd') => lib.store.getStore().range(lib.sampler.SERIES[symbol], 0, 2 ** 31);

describe('the cron route with one metal failing', () => {
  it('answers after every other metal is written, names the failure, and the next run records that metal', async () => {
    const store = lib.store.getStore();
    const real = store.addPoint.bind(store);
    const written = new Set<string>();
    let releaseGold!: () => void;
    const goldMayWrite = new Promise<void>((resolve) => (releaseGold = resolve));
    store.addPoint = async (series, point) => {
      // Silver's write is refused at once; gold's is held until silver has failed, so it is still under way then.
      if (series === lib.sampler.SERIES.xag) {
        setTimeout(releaseGold, 50);
        throw new Error('ERR unknown command (a KV command error)');
      }
      if (series === lib.sampler.SERIES.xau) await goldMayWrite;
      await real(series, point);
      // Only the intraday points: the served price also keeps the live sources' agreement as points.
      if (series.startsWith('intraday:')) written.add(series);
    };
    const errors: string[] = [];
    const logError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
    try {
      const first = await run();
      // Every other metal's point was in the store before the answer.
      expect([...written].sort()).toEqual([lib.sampler.SERIES.xau, lib.sampler.SERIES.xpd, lib.sampler.SERIES.xpt].sort());
      expect(first.status).toBe(200);
      expect(first.body.samples).toEqual({ xau: 'recorded', xag: 'write failed', xpt: 'recorded', xpd: 'recorded' });
      expect(errors.some((line) => /xag failed: ERR unknown command/.test(line))).toBe(true);
      expect(await points('xag')).toEqual([]);
    } finally {
      store.addPoint = real;
      console.error = logError;
    }

    // The next run, in the same bucket: silver's claim was given back, the others' stand.
    const second = await run();
    expect(second.body.samples).toEqual({
      xau: 'bucket already sampled',
      xag: 'recorded',
      xpt: 'bucket already sampled',
      xpd: 'bucket already sampled',
    });
    expect(await points('xag')).toHaveLength(1);
    for (const s of ['xau', 'xpt', 'xpd'] as const) expect(await points(s), s).toHaveLength(1);
  });
});
