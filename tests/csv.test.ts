import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from './support/app';
import { sleep, waitFor } from './support/expect';
import { FakeUpstream } from './support/fake-upstream';
import { realChartHandler } from './support/yahoo';

// `format=csv` on the series endpoints, against the built app on real recorded data: every row
// is the JSON point it stands for, the freshness rides in headers, and errors stay JSON.

let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  app = await App.start({ env: { ...fake.env(), SAMPLER: 'on', SAMPLE_INTERVAL_S: '1', CACHE_TTL_S: '1' } });
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
