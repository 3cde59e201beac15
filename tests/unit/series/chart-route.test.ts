import { describe, expect, it } from 'vitest';
import { fixture } from '../../support/fake-upstream';
import { inProcessScenarios } from '../../support/in-process';
import { RECORDED } from '../../support/yahoo';

// GET /api/v1/chart at the route handler in process (tests/support/in-process.ts), each scenario with its own fake
// upstream: bars the upstream leaves empty are dropped, and its error bodies become clear errors. The rest, against
// the recorded bodies, is the built app's (tests/integration/series/chart.test.ts).

const scenario = inProcessScenarios();

describe('GET /api/v1/chart, in process', () => {
  it('bars with a null close are dropped, never filled in', async () => {
    // The recorded S&P 500 body with three slots emptied the way the upstream empties them.
    const withNulls = structuredClone(RECORDED['^GSPC']) as any;
    const q = withNulls.chart.result[0].indicators.quote[0];
    for (const i of [2, 5, 9]) for (const k of ['open', 'high', 'low', 'close', 'volume']) q[k][i] = null;
    const app = await scenario((f) => f.onChart(() => ({ status: 200, body: withNulls })));
    const { body } = await app.json('/api/v1/chart?symbol=sp500&range=6mo&interval=1wk');
    const dropped = [2, 5, 9].map((i) => withNulls.chart.result[0].timestamp[i]);
    expect(body.count).toBe(withNulls.chart.result[0].timestamp.length - 3);
    for (const t of dropped) expect(body.points.find((p: { t: number }) => p.t === t)).toBeUndefined();
  });

  it('upstream 422 and 400 bodies become clear errors', async () => {
    for (const name of ['yahoo-chart-error-422-range.json', 'yahoo-chart-error-400-interval.json']) {
      const status = name.includes('422') ? 422 : 400;
      const app = await scenario((f) => f.set('chart', { mode: 'status', status, fixture: name }));
      const r = await app.json('/api/v1/chart?interval=5m&range=1mo');
      expect(r.status).toBe(503);
      expect(r.body.error).toContain(fixture(name).chart.error.description);
      expect(r.body.error).toContain(`HTTP ${status}`);
    }
  });
});
