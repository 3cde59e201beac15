import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chart } from '@/lib/schemas/chart';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, type ChartHandler } from '../../support/fake-upstream';
import { RECORDED } from '../../support/yahoo';

// GET /api/v1/chart against recorded chart-upstream bodies. Null closes dropped and the upstream's error bodies are
// checked at the route handler in process (tests/unit/series/chart-route.test.ts).

const TICKER: Record<string, string> = {
  xau: 'GC=F',
  silver: 'SI=F',
  bitcoin: 'BTC-USD',
  sp500: '^GSPC',
  nasdaq: '^IXIC',
  dxy: 'DX-Y.NYB',
  eurusd: 'EURUSD=X',
  oil: 'CL=F',
  platinum: 'PL=F',
  palladium: 'PA=F',
};
const recorded: ChartHandler = (ticker) => (RECORDED[ticker] ? { status: 200, body: RECORDED[ticker] } : null);

/** The recorded bars of a body with a real close, as the test reads them. */
function realCloses(body: any): { t: number; c: number }[] {
  const r = body.chart.result[0];
  const q = r.indicators.quote[0];
  return (r.timestamp ?? []).map((t: number, i: number) => ({ t, c: q.close[i] })).filter((b: { c: number | null }) => b.c !== null);
}

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(recorded);
  app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '1' } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('GET /api/v1/chart', () => {
  for (const [symbol, ticker] of Object.entries(TICKER)) {
    it(`${symbol} asks the upstream for ${ticker} and nothing else`, async () => {
      fake.log.length = 0;
      const r = await app.json(`/api/v1/chart?symbol=${symbol}&range=6mo&interval=1wk`);
      expect(fake.log).toEqual([`/v8/finance/chart/${encodeURIComponent(ticker)}?range=6mo&interval=1wk&includePrePost=false`]);
      if (RECORDED[ticker]) {
        expect(r.status).toBe(200);
        Chart.parse(r.body);
        expect(r.body).toMatchObject({ symbol, ticker, range: '6mo', interval: '1wk', data_state: { status: 'fresh' } });
        expect(r.body.points.map((p: { t: number; c: number }) => ({ t: p.t, c: p.c }))).toEqual(realCloses(RECORDED[ticker]));
      } else {
        // No recorded body for this ticker: the fake answers the upstream's real 404 body.
        expect(r.status).toBe(503);
        expect(r.body.error).toContain('No data found, symbol may be delisted');
        expect(r.body.data_state.status).toBe('unavailable');
      }
    });
  }

  it('t is integer seconds, strictly ascending; v is a number', async () => {
    const { body } = await app.json('/api/v1/chart?symbol=sp500&range=6mo&interval=1wk');
    for (let i = 0; i < body.points.length; i++) {
      expect(Number.isInteger(body.points[i].t)).toBe(true);
      expect(typeof body.points[i].v).toBe('number');
      if (i > 0) expect(body.points[i].t).toBeGreaterThan(body.points[i - 1].t);
    }
    expect(body.count).toBe(body.points.length);
  });

  it('invalid values are 400 with the valid list', async () => {
    for (const [q, name] of [
      ['symbol=gold', 'symbol'],
      ['symbol=../../x', 'symbol'],
      ['symbol=%00', 'symbol'],
      [`symbol=${'x'.repeat(1500)}`, 'symbol'],
      ['range=7y', 'range'],
      ['interval=5h', 'interval'],
      ['interval=1d%20', 'interval'],
    ]) {
      const r = await app.json(`/api/v1/chart?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toMatch(new RegExp(`^Invalid ${name}`));
      expect(r.body.valid.length, q).toBeGreaterThan(1);
    }
  });

  it('combinations the upstream cannot serve are 400 with an explanation', async () => {
    const before = fake.calls.chart;
    for (const [range, interval, why] of [
      ['1mo', '1m', /8 days/],
      ['1y', '1m', /8 days/],
      ['3mo', '5m', /60 days/],
      ['ytd', '15m', /60 days/],
      ['2y', '1h', /730 days/],
      ['max', '60m', /730 days/],
      ['5d', '1wk', /wider/],
      ['1mo', '1mo', /wider/],
    ] as const) {
      const r = await app.json(`/api/v1/chart?range=${range}&interval=${interval}`);
      expect(r.status, `${range}/${interval}`).toBe(400);
      expect(r.body.error).toMatch(why);
      expect(r.body.valid.length).toBeGreaterThan(0);
    }
    expect(fake.calls.chart).toBe(before);
  });

  it('repeated parameters are 400; other methods 405', async () => {
    expect((await app.json('/api/v1/chart?range=1y&range=5y')).status).toBe(400);
    expect((await app.json('/api/v1/chart', { method: 'POST', body: '{}' })).status).toBe(405);
  });

  it('after a good fetch the upstream fails: the cached copy, stale', async () => {
    const good = await app.json('/api/v1/chart?symbol=oil&range=6mo&interval=1wk');
    fake.set('chart', { mode: 'hang' });
    await sleep(1200);
    // The hang never answers: the app's own deadline ends this request (not timed: a missed deadline holds it until the test fails).
    const stale = await app.json('/api/v1/chart?symbol=oil&range=6mo&interval=1wk');
    expect(stale.status).toBe(200);
    expect(stale.body.data_state.status).toBe('stale');
    expect(stale.body.points).toEqual(good.body.points);
    // Another combination never fetched: 503.
    const none = await app.json('/api/v1/chart?symbol=oil&range=1y&interval=1wk');
    expect(none.status).toBe(503);
    expect(none.body.data_state.status).toBe('unavailable');
    fake.reset();
  });
});
