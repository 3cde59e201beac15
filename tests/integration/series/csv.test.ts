import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { sleep, waitFor } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { realChartHandler } from '../../support/yahoo';

// `format=csv` on the series endpoints, against the built app on real recorded data: every row
// is the JSON point it stands for, the freshness rides in headers, and errors stay JSON.

let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // The sampler records only while the market is open: the app's calendar runs on an ordinary trading day, whatever the real time.
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(OPEN_DAY), SAMPLER: 'on', SAMPLE_INTERVAL_S: '1', CACHE_TTL_S: '1' } });
  await waitFor(
    async () => (await app.json('/api/v1/intraday?hours=1')).body.count,
    (n) => n >= 3,
  );
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

async function csv(path: string, on: App = app) {
  const res = await on.get(path);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Data-State/i);
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = text
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  return { header, rows, headers: res.headers };
}

const iso = (t: number) => new Date(t * 1000).toISOString();

describe('format=csv', () => {
  it('history: date,close,high,low, one row per JSON point', async () => {
    const json = await app.json('/api/v1/history');
    const { header, rows, headers } = await csv('/api/v1/history?format=csv');
    expect(header).toEqual(['date', 'close', 'high', 'low']);
    expect(rows.length).toBe(json.body.points.length);
    expect(rows.map((r) => [r[0], Number(r[1]), Number(r[2]), Number(r[3])])).toEqual(json.body.points.map((p: any) => [p.d, p.c, p.h, p.l]));
    expect(headers.get('x-data-state')).toBe(json.body.data_state.status);
    expect(Date.parse(headers.get('x-updated-at')!)).toBeGreaterThan(Date.now() - 60_000);
    // The same caching as the JSON answer.
    expect(headers.get('cache-control')).toBe(json.headers.get('cache-control'));
    expect(headers.get('cdn-cache-control')).toBe(json.headers.get('cdn-cache-control'));
  });

  it('intraday: time,price with ISO times, one row per recorded sample', async () => {
    const json = await app.json('/api/v1/intraday?hours=1&symbol=xag');
    const { header, rows, headers } = await csv('/api/v1/intraday?hours=1&symbol=xag&format=csv');
    expect(header).toEqual(['time', 'price']);
    // A sample may land between the two reads: compare the common prefix, which must be exact.
    const n = Math.min(rows.length, json.body.points.length);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(rows.slice(0, n).map((r) => [r[0], Number(r[1])])).toEqual(json.body.points.slice(0, n).map((p: any) => [iso(p.t), p.p]));
    expect(headers.get('x-data-state')).toBe('fresh');
  });

  it('chart: time,open,high,low,close,volume, one row per bar', async () => {
    const json = await app.json('/api/v1/chart?symbol=sp500&range=6mo&interval=1wk');
    const { header, rows } = await csv('/api/v1/chart?symbol=sp500&range=6mo&interval=1wk&format=csv');
    expect(header).toEqual(['time', 'open', 'high', 'low', 'close', 'volume']);
    expect(rows.length).toBe(json.body.points.length);
    expect(rows.map((r) => [r[0], ...r.slice(1).map(Number)])).toEqual(json.body.points.map((p: any) => [iso(p.t), p.o, p.h, p.l, p.c, p.v]));
  });

  it('an unknown format is a 400 JSON naming the valid values', async () => {
    for (const path of ['/api/v1/history?format=xlsx', '/api/v1/intraday?format=xml', '/api/v1/chart?format=tsv']) {
      const r = await app.json(path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.body).toMatchObject({ valid: ['json', 'csv'] });
      expect(r.body.error).toMatch(/^Invalid format/);
    }
  });

  it('a stale series says so in X-Data-State; with nothing held the answer is the JSON 503', async () => {
    await app.json('/api/v1/chart?symbol=nasdaq&range=6mo&interval=1wk');
    fake.set('chart', { mode: 'status', status: 500 });
    await sleep(1500);
    const stale = await csv('/api/v1/chart?symbol=nasdaq&range=6mo&interval=1wk&format=csv');
    expect(stale.headers.get('x-data-state')).toBe('stale');
    expect(stale.rows.length).toBeGreaterThan(5);
    const never = await app.json('/api/v1/chart?symbol=oil&range=1y&interval=1wk&format=csv');
    expect(never.status).toBe(503);
    expect(never.body.data_state.status).toBe('unavailable');
    // The .csv path says the same.
    const staleCsv = await csv('/api/v1/chart.csv?symbol=nasdaq&range=6mo&interval=1wk');
    expect(staleCsv.headers.get('x-data-state')).toBe('stale');
    expect(staleCsv.rows).toEqual(stale.rows);
    const neverCsv = await app.json('/api/v1/chart.csv?symbol=oil&range=1y&interval=1wk');
    expect(neverCsv.status).toBe(503);
    expect(neverCsv.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(neverCsv.headers.get('cache-control')).toBe('no-store');
    expect(neverCsv.body.data_state.status).toBe('unavailable');
    fake.reset();
  });

  it('an empty window is a header row only, marked unavailable', async () => {
    const quiet = await FakeUpstream.start();
    const other = await App.start({ env: quiet.env() });
    try {
      const { header, rows, headers } = await csv('/api/v1/intraday?format=csv', other);
      expect(header).toEqual(['time', 'price']);
      expect(rows).toEqual([]);
      expect(headers.get('x-data-state')).toBe('unavailable');
    } finally {
      await other.stop();
      await quiet.close();
    }
  });
});

describe('the .csv paths', () => {
  const SAME = ['content-type', 'cache-control', 'cdn-cache-control', 'x-data-state', 'access-control-expose-headers', 'x-content-type-options'];

  it('answer the bytes and headers of format=csv on the JSON path', async () => {
    for (const [path, query] of [
      ['/api/v1/history', ''],
      ['/api/v1/history', 'series=spot'],
      ['/api/v1/chart', 'symbol=sp500&range=6mo&interval=1wk'],
      ['/api/v1/chart', 'symbol=xau&range=1mo&interval=1d'],
    ]) {
      const q = query ? `?${query}` : '';
      // The spot series' current bar folds a new price every second here: a pair of answers that straddles a fold differs
      // in that bar, so the pair is asked again (a real difference between the two paths would stay in every pair).
      let viaFormat!: Response,
        viaPath!: Response,
        body = '',
        other = '';
      for (let i = 0; i < 10 && (i === 0 || body !== other); i++) {
        [viaFormat, viaPath] = [await app.get(`${path}?${query}&format=csv`), await app.get(`${path}.csv${q}`)];
        [body, other] = [await viaPath.text(), await viaFormat.text()];
      }
      expect(viaPath.status, `${path}.csv${q}`).toBe(200);
      expect(body, `${path}.csv${q}`).toBe(other);
      expect(body.split('\r\n').length).toBeGreaterThan(query === 'series=spot' ? 1 : 5);
      for (const h of SAME) expect(viaPath.headers.get(h), `${path}.csv${q} ${h}`).toBe(viaFormat.headers.get(h));
      expect(Date.parse(viaPath.headers.get('x-updated-at')!)).toBeGreaterThan(Date.now() - 60_000);
    }
    // Intraday gains a sample every second here: the rows both answers share must be the same.
    const viaFormat = await csv('/api/v1/intraday?hours=1&format=csv');
    const viaPath = await csv('/api/v1/intraday.csv?hours=1');
    expect(viaPath.header).toEqual(['time', 'price']);
    const n = Math.min(viaFormat.rows.length, viaPath.rows.length);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(viaPath.rows.slice(0, n)).toEqual(viaFormat.rows.slice(0, n));
    expect(viaPath.headers.get('x-data-state')).toBe('fresh');
    expect(viaPath.headers.get('cache-control')).toBe(viaFormat.headers.get('cache-control'));
  });

  it('take format=csv or an empty format; any other format, or a bad value, is a 400 JSON', async () => {
    expect((await csv('/api/v1/history.csv?format=CSV')).header).toEqual(['date', 'close', 'high', 'low']);
    expect((await csv('/api/v1/chart.csv?format=&symbol=eurusd&range=6mo&interval=1wk')).header[0]).toBe('time');
    for (const [path, error] of [
      ['/api/v1/history.csv?format=json', /^Invalid format: json\. Valid values: csv \(\/api\/v1\/history\.csv always answers CSV/],
      ['/api/v1/intraday.csv?format=xml', /^Invalid format: xml/],
      ['/api/v1/chart.csv?symbol=gold', /^Invalid symbol/],
      ['/api/v1/intraday.csv?hours=0', /^Invalid hours/],
      ['/api/v1/history.csv?date=2026-02-30', /^Invalid date/],
    ] as const) {
      const r = await app.json(path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body.error, path).toMatch(error);
      expect(r.body.valid.length, path).toBeGreaterThan(0);
      expect(r.body.data_state.status, path).toBeTruthy();
    }
    // A dotted path no route serves is the API's JSON 404, not a page.
    const unknown = await app.json('/api/v1/history.xlsx');
    expect(unknown.status).toBe(404);
  });

  it('HEAD, OPTIONS and other methods as on every REST path', async () => {
    const head = await app.get('/api/v1/history.csv', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // The recorded futures bars end 2026-04-16, months before this app's market clock: the series is stale (decisions §29).
    expect(head.headers.get('x-data-state')).toBe('stale');
    expect(head.headers.get('x-series')).toBe('futures');
    expect(await head.text()).toBe('');
    const options = await app.get('/api/v1/chart.csv', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    for (const method of ['POST', 'DELETE']) {
      const r = await app.json('/api/v1/intraday.csv', { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(r.body).toMatchObject({ error: 'Method not allowed', data_state: { status: 'fresh' } });
    }
  });
});
