import { describe, expect, it } from 'vitest';
import { r2 } from '../../support/bars';
import { sleep } from '../../support/expect';
import { inProcessScenarios } from '../../support/in-process';
import { marketClockAt } from '../../support/market';
import { chartBody, fiveYearsWithNullCloses, nyMidnight } from '../../support/yahoo';

// GET /api/v1/history at its route handler, Request in, Response out, each scenario with its own fake upstream, store
// folder and process state (tests/support/in-process.ts): the day a session's last bar belongs to, and the data states
// (stale after an outage, never fetched, an error body with HTTP 200). The whole series and its statistics through the
// built app, and the method rules, are in tests/integration/series/history.test.ts.

const { kept, handler: fiveYears } = fiveYearsWithNullCloses();

const scenario = inProcessScenarios();

describe('GET /api/v1/history', () => {
  it("the session's last bar, stamped with its last trade time, is that day's point", async () => {
    // The last two real rows, the later one stamped 16:59 New York on the earlier one's date.
    const [a, b] = kept.slice(-2);
    const bars = [
      ...kept.slice(0, -2).map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: r.c })),
      { t: nyMidnight(a.d), o: a.o, h: a.h, l: a.l, c: a.c },
      { t: nyMidnight(a.d) + 16 * 3600 + 59 * 60, o: b.o, h: b.h, l: b.l, c: b.c },
    ];
    const app = await scenario((f) => f.onChart(() => ({ status: 200, body: chartBody(bars) })));
    const { body } = await app.json('/api/v1/history');
    expect(body.points[body.points.length - 1]).toEqual({ d: a.d, c: r2(b.c), h: r2(b.h), l: r2(b.l) });
    expect(body.count).toBe(kept.length - 1);
  });

  it('upstream down after a good fetch: the same series, stale', async () => {
    // The market clock on the session after the last real bar: the series is as current as the upstream's, so fresh.
    const app = await scenario((f) => f.onChart(fiveYears), { CACHE_TTL_S: '1', ...marketClockAt(Date.parse('2026-04-17T09:00:00-04:00')) });
    const good = await app.json('/api/v1/history');
    expect(good.body.data_state).toMatchObject({ status: 'fresh' });
    app.fake.set('chart', { mode: 'status', status: 500, text: 'Edge: Too Many Requests' });
    await sleep(1200);
    const stale = await app.json('/api/v1/history');
    expect(stale.status).toBe(200);
    expect(stale.body.data_state).toMatchObject({ status: 'stale', source: 'cache' });
    expect(stale.body.points).toEqual(good.body.points);
    expect(stale.body.high_52w).toBe(good.body.high_52w);
  });

  it('never fetched and the upstream down: 503 unavailable with the reason', async () => {
    const app = await scenario((f) => f.set('chart', { mode: 'refuse' }));
    const r = await app.json('/api/v1/history');
    expect(r.status).toBe(503);
    expect(r.body.data_state.status).toBe('unavailable');
    expect(r.body.error).toMatch(/unavailable/);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('an error body with HTTP 200 counts as down', async () => {
    const app = await scenario((f) =>
      f.onChart(() => ({
        status: 200,
        body: { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } },
      })),
    );
    const r = await app.json('/api/v1/history');
    expect(r.status).toBe(503);
    expect(r.body.error).toContain('No data found, symbol may be delisted');
  });
});
