import { describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { Spot } from '@/lib/schemas/spot';
import { inProcessScenarios } from '../../support/in-process';
import { marketClockAt } from '../../support/market';
import { call, rpc } from '../../support/mcp';
import { realChartHandler } from '../../support/yahoo';

// How the price moves, at the route handlers in process (REST and /mcp, Request in, Response out), each scenario with
// its own fake upstream, store folder and process state (tests/support/in-process.ts): the spot change and the spot
// series on a new deployment, and `date=` on the futures series. The instance's calendar runs on Thursday 16 April 2026.
// After an imported previous session and the import command's refusals (which run the command as an operator does,
// a process each) are in tests/integration/prices/imported-bars.test.ts; bars recorded from served prices through a
// sampler and real restarts are the built app's (tests/integration/prices/movement.test.ts).

const THURSDAY = Date.parse('2026-04-16T09:00:00-04:00');

// The 5-year futures body takes a while to serve on a busy machine.
const scenario = inProcessScenarios({
  env: { ...marketClockAt(THURSDAY), UPSTREAM_TIMEOUT_MS: '5000' },
  prepare: (fake) => fake.onChart(realChartHandler()),
});
const start = () => scenario();

describe('a new deployment', () => {
  it('has an empty spot series (not an error) and says plainly that it does not know the change yet', async () => {
    const app = await start();
    // Before any price is served there is no bar at all.
    const history = await app.json('/api/v1/history?series=spot');
    expect(history.status).toBe(200);
    History.parse(history.body);
    expect(history.body).toMatchObject({ points: [], count: 0, high_52w: null, return_1y_pct: null, data_state: { status: 'unavailable' } });
    const spot = await app.json('/api/v1/spot?compact=1');
    expect(spot.status).toBe(200);
    Spot.parse(spot.body);
    for (const c of [spot.body.change, spot.body.silver_change]) {
      expect(c).toEqual({
        state: 'unavailable',
        session_date: '2026-04-16',
        open: null,
        high: null,
        low: null,
        previous_close: null,
        previous_close_date: null,
        change: null,
        change_pct: null,
        fx_basis: null,
        from_metal: null,
        from_currency: null,
      });
    }
    const mcp = await rpc(app, call('get_gold_price', {}));
    expect(mcp.json.result.content[0].text).toContain('Change since the previous close: not known yet');
  });
});

describe('date= on the futures series', () => {
  it('one point for a trading day, the Friday for a Sunday, 404 before the first point, statistics unchanged', async () => {
    const app = await start();
    const full = await app.json('/api/v1/history');
    expect(full.status, JSON.stringify(full.body).slice(0, 300)).toBe(200);
    const some = full.body.points[full.body.points.length - 10];
    const hit = await app.json(`/api/v1/history?date=${some.d}`);
    expect(hit.body.points).toEqual([some]);
    expect(hit.body.high_52w).toBe(full.body.high_52w);
    expect(hit.body.count).toBe(1);
    // A Sunday answers the Friday before it (decisions §24); only a date before the first point is a 404.
    const sunday = await app.json('/api/v1/history?series=futures&date=2026-04-12');
    expect(sunday.body).toMatchObject({ points: [full.body.points.find((p: { d: string }) => p.d === '2026-04-10')], requested_date: '2026-04-12' });
    const first = full.body.points[0].d;
    const before = await app.json(`/api/v1/history?date=${new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)}`);
    expect(before.status).toBe(404);
    const tool = await rpc(app, call('get_gold_history', { date: some.d }));
    expect(tool.json.result.structuredContent.points).toEqual([some]);
  });
});
