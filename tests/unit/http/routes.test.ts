import { describe, expect, it } from 'vitest';
import * as chartCsv from '@/app/api/v1/chart.csv/route';
import * as chart from '@/app/api/v1/chart/route';
import * as historyCsv from '@/app/api/v1/history.csv/route';
import * as intradayCsv from '@/app/api/v1/intraday.csv/route';
import * as intraday from '@/app/api/v1/intraday/route';
import * as spot from '@/app/api/v1/spot/route';
import { ErrorBody } from '@/lib/schemas/common';
import { Spot } from '@/lib/schemas/spot';
import { sleep } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';
import { callRoute, onFakeUpstream } from '../../support/route-handlers';

// The REST route handlers called in process, Request in, Response out: no build and no server.
// Every upstream is the fake (recorded real bodies); the store is a fresh embedded one (tests/support/route-handlers.ts).

const gold = fixture('goldapi-price-XAU.json');
const fx = fixture('er-api-latest-USD.json');

const upstream = onFakeUpstream('routes');

const call = callRoute;

function expectError(r: Awaited<ReturnType<typeof call>>, status: number) {
  expect(r.status).toBe(status);
  ErrorBody.parse(r.body);
  expect(r.headers.get('cache-control')).toBe('no-store');
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
}

describe('spot route', () => {
  it('gold never seen and both its sources down: 503 unavailable, no price', async () => {
    upstream().set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' });
    const r = await call(spot.GET, '/api/v1/spot');
    expectError(r, 503);
    expect(r.body.data_state.status).toBe('unavailable');
    expect(r.body).not.toHaveProperty('spot_usd_oz');
    upstream().reset();
    // Past the pause before a failed upstream is asked again.
    await sleep(1200);
  });

  it('200 from the recorded upstream bodies', async () => {
    upstream().resetCalls();
    const r = await call(spot.GET, '/api/v1/spot?compact=1');
    expect(r.status).toBe(200);
    Spot.parse(r.body);
    expect(r.body.spot_usd_oz).toBe(gold.price);
    expect(r.body.data_state).toMatchObject({ status: 'fresh', source: 'upstream', as_of: new Date(gold.updatedAt).toISOString() });
    expect(r.body).not.toHaveProperty('fx_rates');
    // CACHE_TTL_S=1 (set above) shortens every cache lifetime, the headers' included.
    expect(r.headers.get('cache-control')).toBe('public, max-age=1');
    expect(r.headers.get('cdn-cache-control')).toBe('max-age=1, stale-while-revalidate=1');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(upstream().calls.gold).toBe(1);
  });

  it('HEAD answers like GET without a body', async () => {
    const res = await spot.GET(new Request('http://t/api/v1/spot', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('an unknown currency is 400 with every supported code', async () => {
    const r = await call(spot.GET, '/api/v1/spot?currency=XYZ');
    expectError(r, 400);
    expect(r.body.error).toBe('Unsupported currency: XYZ');
    expect([...r.body.supported].sort()).toEqual(Object.keys(fx.rates).sort());
  });

  it('a bad unit is 400 naming the valid units', async () => {
    const r = await call(spot.GET, '/api/v1/spot?unit=xyz');
    expectError(r, 400);
    expect(r.body.error).toBe('Unsupported unit: xyz. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain');
  });

  it('a repeated parameter is 400', async () => {
    const r = await call(spot.GET, '/api/v1/spot?unit=oz&unit=gram');
    expectError(r, 400);
    expect(r.body.error).toMatch(/unit/);
  });

  it('a query string over 2048 characters is 414', async () => {
    expectError(await call(spot.GET, `/api/v1/spot?pad=${'a'.repeat(2048)}`), 414);
  });

  it('other methods are 405 with Allow, still carrying data_state', async () => {
    // The state of the price a GET serves: a 405 carries it without asking the upstream. Whether it is
    // still fresh depends on the 1 s test TTL and the machine's pace: on a slow machine both sources can turn
    // stale between the calls, and the newer of the two is then served, so the 405's time is one of theirs.
    const got = (await call(spot.GET, '/api/v1/spot')).body;
    const served = got.data_state;
    expect(served.status).toBe('fresh');
    const sourceTimes: string[] = got.sources.map((s: { as_of: string }) => s.as_of);
    expect(sourceTimes).toContain(served.as_of);
    for (const [name, handler] of [
      ['POST', spot.POST],
      ['PUT', spot.PUT],
      ['PATCH', spot.PATCH],
      ['DELETE', spot.DELETE],
    ] as const) {
      const r = await call(handler, '/api/v1/spot', { method: name, body: name === 'DELETE' ? undefined : '{}' });
      expectError(r, 405);
      expect(r.body.error, name).toBe('Method not allowed');
      expect(r.headers.get('allow'), name).toBe('GET, HEAD, OPTIONS');
      expect(['fresh', 'stale'], name).toContain(r.body.data_state.status);
      expect(sourceTimes, name).toContain(r.body.data_state.as_of);
    }
  });

  it('OPTIONS is a 204 CORS preflight allowing the requested headers', async () => {
    const res = await spot.OPTIONS(
      new Request('http://t/api/v1/spot', {
        method: 'OPTIONS',
        headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-custom' },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-custom');
    expect(await res.text()).toBe('');
  });
});

describe('intraday route', () => {
  it('invalid hours and symbol are 400 with the valid values', async () => {
    for (const q of ['hours=0', 'hours=49', 'hours=1.5', 'hours=abc', 'symbol=btc', 'symbol=../x']) {
      const r = await call(intraday.GET, `/api/v1/intraday?${q}`);
      expectError(r, 400);
      expect(r.body.error, q).toMatch(/^Invalid (hours|symbol)/);
      expect(r.body.valid.length, q).toBeGreaterThan(1);
    }
    expectError(await call(intraday.GET, '/api/v1/intraday?hours=1&hours=2'), 400);
  });

  it('an empty series is 200 with no points, unavailable', async () => {
    const r = await call(intraday.GET, '/api/v1/intraday?hours=1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 0, points: [], coverage_seconds: 0, data_state: { status: 'unavailable' } });
  });
});

describe('chart route', () => {
  it('invalid values and combinations the upstream cannot serve are 400, without asking the upstream', async () => {
    upstream().resetCalls();
    for (const [q, error] of [
      ['symbol=gold', /^Invalid symbol/],
      ['range=7y', /^Invalid range/],
      ['interval=5h', /^Invalid interval/],
      ['range=1y&interval=1m', /8 days/],
      ['range=5d&interval=1wk', /wider/],
    ] as const) {
      const r = await call(chart.GET, `/api/v1/chart?${q}`);
      expectError(r, 400);
      expect(r.body.error, q).toMatch(error);
      expect(r.body.valid.length, q).toBeGreaterThan(0);
    }
    expectError(await call(chart.GET, '/api/v1/chart?range=1y&range=5y'), 400);
    expect(upstream().calls.chart).toBe(0);
  });
});

describe('the .csv routes', () => {
  it('answer CSV whatever the Accept header, with format left out, empty or csv in any case', async () => {
    const json = await intraday.GET(new Request('http://t/api/v1/intraday'));
    for (const q of ['', '?format=', '?format=csv', '?format=CSV']) {
      const res = await intradayCsv.GET(new Request(`http://t/api/v1/intraday.csv${q}`, { headers: { Accept: 'application/json' } }));
      expect(res.status, q).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      // No sample recorded here: the header row alone, and the state says why.
      expect(await res.text()).toBe('time,price\r\n');
      expect(res.headers.get('x-data-state')).toBe('unavailable');
      // The JSON answer's caching.
      expect(res.headers.get('cache-control')).toBe(json.headers.get('cache-control'));
      expect(res.headers.get('cdn-cache-control')).toBe(json.headers.get('cdn-cache-control'));
    }
  });

  it('a format that contradicts the path is a 400 JSON naming the conflict', async () => {
    for (const [handler, path] of [
      [intradayCsv.GET, '/api/v1/intraday.csv'],
      [historyCsv.GET, '/api/v1/history.csv'],
      [chartCsv.GET, '/api/v1/chart.csv'],
    ] as const) {
      for (const format of ['json', 'JSON', 'xml']) {
        const r = await call(handler, `${path}?format=${format}`);
        expectError(r, 400);
        expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(r.body.error).toBe(
          `Invalid format: ${format}. Valid values: csv (${path} always answers CSV; for JSON, ask ${path.replace('.csv', '')})`,
        );
        expect(r.body.valid).toEqual(['csv']);
      }
      expectError(await call(handler, `${path}?format=csv&format=csv`), 400);
    }
  });

  it('other bad parameters are the same 400 as on the JSON path, without asking the upstream', async () => {
    upstream().resetCalls();
    for (const q of ['symbol=gold', 'range=1y&interval=1m', 'range=1y&range=5y']) {
      const [csv, json] = [await call(chartCsv.GET, `/api/v1/chart.csv?${q}`), await call(chart.GET, `/api/v1/chart?${q}`)];
      expectError(csv, 400);
      expect(csv.body.error, q).toBe(json.body.error);
      expect(csv.body.valid, q).toEqual(json.body.valid);
    }
    expect(upstream().calls.chart).toBe(0);
    expectError(await call(historyCsv.GET, '/api/v1/history.csv?date=2026-13-01'), 400);
    expectError(await call(intradayCsv.GET, '/api/v1/intraday.csv?hours=49'), 400);
  });

  it('other methods are 405 with Allow, as on every REST path', async () => {
    const r = await call(historyCsv.DELETE, '/api/v1/history.csv', { method: 'DELETE' });
    expectError(r, 405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
