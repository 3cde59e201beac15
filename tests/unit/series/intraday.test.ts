import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '@/lib/store/embedded';
import type { Store } from '@/lib/store';
import { Intraday } from '@/lib/schemas/intraday';
import { sleep } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';
import { inProcessScenarios, type Instance } from '../../support/in-process';
import { marketClockAt, OPEN_DAY } from '../../support/market';

// The cron route and GET /api/v1/intraday at their route handlers, Request in, Response out, each scenario with its
// own fake upstream, store folder and process state (tests/support/in-process.ts). What only the built app shows (the
// in-process sampler a server starts, its series through a real restart, SAMPLER=off) is in
// tests/integration/series/intraday.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const SECRET = 'test-cron-secret';
const cron = (app: Instance, token?: string) => app.json('/api/cron/sample', { headers: token === undefined ? {} : { authorization: token } });

// Registered before the scenarios' own cleanup, so it runs after this file's (hooks run last registered first):
// a store opened beside an instance is closed before its folder goes.
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
const scenario = inProcessScenarios({ env: { CRON_SECRET: SECRET, CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY) } });
const start = (env: Record<string, string> = {}) =>
  scenario(undefined, { CRON_SECRET: SECRET, CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY), ...env });

/** The instance's own store file, opened beside it (SQLite in WAL mode allows both). */
function storeOf(app: Instance): Store {
  const store = openEmbeddedStore(app.dataDir);
  stores.push(store);
  return store;
}

describe('cron route', () => {
  it('503 without CRON_SECRET', async () => {
    const bare = await start({ CRON_SECRET: '' });
    expect((await cron(bare, `Bearer ${SECRET}`)).status).toBe(503);
  });

  it('401 without or with a wrong token, 200 with it', async () => {
    const app = await start();
    for (const token of [undefined, '', 'Bearer wrong', `Bearer ${SECRET}x`, SECRET, `bearer ${SECRET}`]) {
      const r = await cron(app, token);
      expect(r.status, String(token)).toBe(401);
      expect(r.body.error).toBeTruthy();
    }
    const ok = await cron(app, `Bearer ${SECRET}`);
    expect(ok.status).toBe(200);
    expect(ok.body.samples).toEqual({ xau: 'recorded', xag: 'recorded', xpt: 'recorded', xpd: 'recorded' });
    expect(ok.body.data_state.status).toBe('fresh');
  });

  it('two calls in one bucket make one point per symbol', async () => {
    const app = await start({ SAMPLE_INTERVAL_S: '3600' });
    const [a, b] = await Promise.all([cron(app, `Bearer ${SECRET}`), cron(app, `Bearer ${SECRET}`)]);
    expect([a.body.samples.xau, b.body.samples.xau].sort()).toEqual(['bucket already sampled', 'recorded']);
    const third = await cron(app, `Bearer ${SECRET}`);
    expect(third.body.samples).toEqual({
      xau: 'bucket already sampled',
      xag: 'bucket already sampled',
      xpt: 'bucket already sampled',
      xpd: 'bucket already sampled',
    });
    const xau = await app.json('/api/v1/intraday?symbol=xau&hours=1');
    const xag = await app.json('/api/v1/intraday?symbol=xag&hours=1');
    expect(xau.body.count).toBe(1);
    expect(xau.body.points[0].p).toBe(gold.price);
    expect(xag.body.points.map((p: { p: number }) => p.p)).toEqual([silver.price]);
  });

  it('upstream down: nothing is recorded, not even the stale price', async () => {
    const app = await start({ SAMPLE_INTERVAL_S: '2' });
    expect((await cron(app, `Bearer ${SECRET}`)).body.samples.xau).toBe('recorded');
    app.fake.set('gold', { mode: 'refuse' }).set('silver', { mode: 'status', status: 500 }).set('quotes', { mode: 'refuse' });
    app.fake.set('platinum', { mode: 'malformed' }).set('palladium', { mode: 'refuse' });
    await sleep(2100);
    const r = await cron(app, `Bearer ${SECRET}`);
    expect(r.body.samples).toEqual({ xau: 'no fresh price', xag: 'no fresh price', xpt: 'no fresh price', xpd: 'no fresh price' });
    expect((await app.json('/api/v1/intraday')).body.count).toBe(1);
    // Spot meanwhile serves the stale price: the sampler did not mistake it for a sample.
    expect((await app.json('/api/v1/spot?compact=1')).body.stale).toBe(true);
  });
});

describe('retention', () => {
  it('a point older than 14 days is trimmed by the next sample', async () => {
    const app = await start({ SAMPLE_INTERVAL_S: '3600' });
    const store = storeOf(app);
    const now = Math.floor(Date.now() / 1000);
    await store.addPoint('intraday:xau', { t: now - 15 * 86400, p: 1 });
    await store.addPoint('intraday:xau', { t: now - 13 * 86400, p: 2 });
    await cron(app, `Bearer ${SECRET}`);
    const left = await store.range('intraday:xau', 0, now + 10);
    expect(left.map((p) => p.p)).toEqual([2, gold.price]);
  });
});

describe('GET /api/v1/intraday', () => {
  const now = Math.floor(Date.now() / 1000);
  const seeded = [
    { t: now - 50 * 3600, p: 4100 },
    { t: now - 47 * 3600, p: 4200 },
    { t: now - 23 * 3600, p: 4300 },
    { t: now - 50 * 60, p: 4400 },
    { t: now - 4 * 60, p: 4410 },
  ];

  /** An instance (the environment a built app gets by default) whose store holds the points above, having first served the empty series. */
  async function seededApp(): Promise<Instance> {
    const app = await scenario(undefined, {});
    const store = storeOf(app);
    expect((await app.json('/api/v1/intraday')).body).toMatchObject({
      count: 0,
      points: [],
      coverage_seconds: 0,
      data_state: { status: 'unavailable' },
    });
    for (const p of [...seeded].reverse()) await store.addPoint('intraday:xau', p);
    await store.addPoint('intraday:xag', { t: now - 60, p: 65 });
    return app;
  }

  it('the hours window, oldest first, count and coverage', async () => {
    const app = await seededApp();
    for (const [hours, expected] of [
      [48, seeded.slice(1)],
      [24, seeded.slice(2)],
      [1, seeded.slice(3)],
    ] as const) {
      const { status, body } = await app.json(`/api/v1/intraday?hours=${hours}`);
      expect(status).toBe(200);
      Intraday.parse(body);
      expect(body.points).toEqual(expected);
      expect(body.count).toBe(expected.length);
      expect(body.coverage_seconds).toBe(expected[expected.length - 1].t - expected[0].t);
    }
    const def = await app.json('/api/v1/intraday');
    expect(def.body.hours).toBe(24);
    expect(def.body.count).toBe(3);
  });

  it('data_state describes the latest sample', async () => {
    const app = await seededApp();
    const { body } = await app.json('/api/v1/intraday?hours=2');
    expect(body.data_state).toMatchObject({ status: 'fresh', source: 'cache', as_of: new Date((now - 4 * 60) * 1000).toISOString() });
    const xag = await app.json('/api/v1/intraday?symbol=XAG');
    expect(xag.body).toMatchObject({ symbol: 'xag', count: 1, coverage_seconds: 0 });
  });

  it('invalid hours and symbol are 400 with valid values', async () => {
    const app = await seededApp();
    for (const q of [
      'hours=0',
      'hours=49',
      'hours=1.5',
      'hours=abc',
      'hours=-1',
      'hours=1e1',
      'hours=%00',
      'symbol=btc',
      'symbol=gold',
      'symbol=../x',
    ]) {
      const r = await app.json(`/api/v1/intraday?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toMatch(/^Invalid (hours|symbol)/);
      expect(Array.isArray(r.body.valid), q).toBe(true);
      expect(r.body.data_state, q).toBeTruthy();
    }
    expect((await app.json('/api/v1/intraday?hours=1&hours=2')).status).toBe(400);
  });
});
