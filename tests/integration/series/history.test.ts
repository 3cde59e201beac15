import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { App } from '../../support/app';
import { expectedStats, r2 } from '../../support/bars';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';
import { fiveYearsWithNullCloses, nyMidnight } from '../../support/yahoo';

// GET /api/v1/history through the built app on a 5-year body built from real daily OHLC rows; every statistic is
// checked against the tests' own computation from the same rows (expectedStats, by plain date arithmetic). The data
// states and the day a session's last bar belongs to run at the route handler in process
// (tests/unit/series/history-route.test.ts).

const { kept, nullDates, handler: fiveYears } = fiveYearsWithNullCloses();

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(fiveYears);
  // The market clock on the session after the last real bar: the series is as current as the upstream's, so fresh.
  app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '1', ...marketClockAt(Date.parse('2026-04-17T09:00:00-04:00')) } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('GET /api/v1/history', () => {
  it('serves every real daily point, oldest first, null closes dropped', async () => {
    const { status, body } = await app.json('/api/v1/history');
    expect(status).toBe(200);
    History.parse(body);
    expect(body).toMatchObject({ symbol: 'XAUUSD', interval: 'daily', count: kept.length });
    expect(body.source).toMatch(/GC=F/);
    expect(body.points).toEqual(kept.map((r) => ({ d: r.d, c: r2(r.c), h: r2(r.h), l: r2(r.l) })));
    for (const d of nullDates) expect(body.points.find((p: { d: string }) => p.d === d)).toBeUndefined();
    expect(body.data_state).toMatchObject({ status: 'fresh', as_of: new Date(nyMidnight(kept[kept.length - 1].d) * 1000).toISOString() });
  });

  it('every statistic equals an independent computation', async () => {
    const { body } = await app.json('/api/v1/history');
    const want = expectedStats(kept);
    expect(body.high_52w).toBe(want.high_52w);
    expect(body.low_52w).toBe(want.low_52w);
    expect(body.ranges).toEqual(want.ranges);
    expect(body.return_ytd_pct).toBe(want.return_ytd_pct);
    expect(body.return_1y_pct).toBe(want.return_1y_pct);
    expect(want.return_ytd_pct).not.toBeNull();
    expect(want.return_1y_pct).not.toBeNull();
  });

  it('405 for other methods', async () => {
    expect((await app.json('/api/v1/history', { method: 'DELETE' })).status).toBe(405);
  });
});
