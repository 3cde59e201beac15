import { afterEach, describe, expect, it } from 'vitest';
import { Intraday } from '@/lib/schemas/intraday';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';

// The in-process sampler a server starts and its series through a real restart, against the built app. The cron route,
// retention and GET /api/v1/intraday's answers run at their route handlers in process (tests/unit/series/intraday.test.ts).

const SECRET = 'test-cron-secret';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(env: Record<string, string> = {}, setup?: (f: FakeUpstream) => void) {
  const fake = await FakeUpstream.start();
  setup?.(fake);
  const app = await App.start({ env: { ...fake.env(), CRON_SECRET: SECRET, CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY), ...env } });
  cleanup.push(
    () => fake.close(),
    () => app.stop(),
  );
  return { fake, app };
}

describe('in-process sampler', () => {
  it('records a point about every SAMPLE_INTERVAL_S seconds, and the series survives a restart', async () => {
    const { app } = await start({ SAMPLER: 'on', SAMPLE_INTERVAL_S: '2' });
    await expect
      .poll(async () => (await app.json('/api/v1/intraday?hours=1')).body.count, { timeout: 15_000, interval: 500 })
      .toBeGreaterThanOrEqual(4);
    const { body } = await app.json('/api/v1/intraday?hours=1');
    Intraday.parse(body);
    const gaps = body.points.slice(1).map((p: { t: number }, i: number) => p.t - body.points[i].t);
    // One point per 2-second bucket: consecutive samples 1 to 4 seconds apart (timer jitter included).
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(1);
      expect(gap).toBeLessThanOrEqual(4);
    }
    expect(new Set(body.points.map((p: { t: number }) => Math.floor(p.t / 2))).size).toBe(body.count);

    await app.restart({ SAMPLER: 'off' });
    const after = await app.json('/api/v1/intraday?hours=1');
    expect(after.body.points.slice(0, body.count)).toEqual(body.points);
  });

  it('SAMPLER=off records nothing', async () => {
    const { app } = await start({ SAMPLER: 'off', SAMPLE_INTERVAL_S: '1' });
    await sleep(2500);
    expect((await app.json('/api/v1/intraday')).body.count).toBe(0);
    // Methods are refused by server.mjs's rules, the route answering the 405.
    expect((await app.json('/api/v1/intraday', { method: 'POST' })).status).toBe(405);
  });
});
