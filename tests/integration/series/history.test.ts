import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { App } from '../../support/app';
import { expectedStats, r2 } from '../../support/bars';
import { sleep } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';
import { chartBody, dailyRows, nyMidnight } from '../../support/yahoo';

// GET /api/v1/history on a 5-year body built from real daily OHLC rows; every statistic is
// checked against the tests' own computation from the same rows (expectedStats, by plain date arithmetic).

const all = dailyRows();
// Five years back from the last row: what the upstream holds here, and the default window.
const rows = all.filter((r) => r.d >= '2021-04-16');
/** Rows whose close the body sends as null (a slot without trades): they must be dropped. */
const nullDates = new Set([rows[100].d, rows[700].d, rows[rows.length - 3].d]);
const kept = rows.filter((r) => !nullDates.has(r.d));

function body() {
  const bars = rows.map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: nullDates.has(r.d) ? null : r.c }));
  return chartBody(bars);
}

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart((ticker, q) => (ticker === 'GC=F' && q.has('period1') && q.get('interval') === '1d' ? { status: 200, body: body() } : null));
  // The market clock on the session after the last real bar: the series is as current as the upstream's, so fresh.
  app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '1', ...marketClockAt(Date.parse('2026-04-17T09:00:00-04:00')) } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});
afterEach(() => fake.reset());

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

  it("the session's last bar, stamped with its last trade time, is that day's point", async () => {
    // The last two real rows, the later one stamped 16:59 New York on the earlier one's date.
    const [a, b] = kept.slice(-2);
    const bars = [
      ...kept.slice(0, -2).map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: r.c })),
      { t: nyMidnight(a.d), o: a.o, h: a.h, l: a.l, c: a.c },
      { t: nyMidnight(a.d) + 16 * 3600 + 59 * 60, o: b.o, h: b.h, l: b.l, c: b.c },
    ];
    const f = await FakeUpstream.start();
    f.onChart(() => ({ status: 200, body: chartBody(bars) }));
    const a2 = await App.start({ env: f.env() });
    try {
      const { body } = await a2.json('/api/v1/history');
      expect(body.points[body.points.length - 1]).toEqual({ d: a.d, c: r2(b.c), h: r2(b.h), l: r2(b.l) });
      expect(body.count).toBe(kept.length - 1);
    } finally {
      await a2.stop();
      await f.close();
    }
  });

  it('upstream down after a good fetch: the same series, stale', async () => {
    const good = await app.json('/api/v1/history');
    fake.set('chart', { mode: 'status', status: 500, text: 'Edge: Too Many Requests' });
    await sleep(1200);
    const stale = await app.json('/api/v1/history');
    expect(stale.status).toBe(200);
    expect(stale.body.data_state).toMatchObject({ status: 'stale', source: 'cache' });
    expect(stale.body.points).toEqual(good.body.points);
    expect(stale.body.high_52w).toBe(good.body.high_52w);
  });

  it('never fetched and the upstream down: 503 unavailable with the reason', async () => {
    const f = await FakeUpstream.start();
    f.set('chart', { mode: 'refuse' });
    const a2 = await App.start({ env: f.env() });
    try {
      const r = await a2.json('/api/v1/history');
      expect(r.status).toBe(503);
      expect(r.body.data_state.status).toBe('unavailable');
      expect(r.body.error).toMatch(/unavailable/);
      expect(r.headers.get('cache-control')).toBe('no-store');
    } finally {
      await a2.stop();
      await f.close();
    }
  });

  it('an error body with HTTP 200 counts as down', async () => {
    const f = await FakeUpstream.start();
    f.onChart(() => ({
      status: 200,
      body: { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } },
    }));
    const a2 = await App.start({ env: f.env() });
    try {
      const r = await a2.json('/api/v1/history');
      expect(r.status).toBe(503);
      expect(r.body.error).toContain('No data found, symbol may be delisted');
    } finally {
      await a2.stop();
      await f.close();
    }
  });

  it('405 for other methods', async () => {
    expect((await app.json('/api/v1/history', { method: 'DELETE' })).status).toBe(405);
  });
});
