import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { rpc } from '../../support/mcp';

// The response cache of `npm start` in front of the built app: what a client of the real server
// sees, and how often the upstream is asked. The caching rules themselves are in tests/unit/.

const gold = fixture('goldapi-price-XAU.json');

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request without any automatic decompression, so each stored variant is seen as sent. */
function raw(app: App, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: { ...fake.env(), RESPONSE_CACHE: 'on' } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('spot through the cache', () => {
  it('a miss renders, then hits are served from memory with both caching headers', async () => {
    const path = '/api/v1/spot?compact=1&currency=EUR';
    const miss = await raw(app, path);
    const hit = await raw(app, path);
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body.equals(miss.body)).toBe(true);
    expect(hit.headers['cache-control']).toBe('public, max-age=30');
    expect(hit.headers['cdn-cache-control']).toBe('max-age=30, stale-while-revalidate=30');
    expect(hit.headers['access-control-allow-origin']).toBe('*');
    expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(hit.body.toString())).toMatchObject({ spot_usd_oz: gold.price, xau: { currency: 'EUR' } });
  });

  it('identity, gzip and brotli: each decompresses to the same body, from one render', async () => {
    const path = '/api/v1/spot?currency=JPY';
    const identity = await raw(app, path);
    const gzip = await raw(app, path, { 'accept-encoding': 'gzip' });
    const br = await raw(app, path, { 'accept-encoding': 'br, gzip' });
    expect([identity, gzip, br].map((r) => r.headers['x-cache'])).toEqual(['MISS', 'HIT', 'HIT']);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Object.keys(JSON.parse(identity.body.toString()).fx_rates).length).toBeGreaterThan(100);
  });

  it('HEAD is answered from the GET entry', async () => {
    const path = '/api/v1/spot?compact=1&unit=gram';
    const get = await raw(app, path, { 'accept-encoding': 'gzip' });
    const head = await raw(app, path, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['x-cache']).toBe('HIT');
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(get.body.length);
  });

  it('a .csv path is stored like its JSON path, and apart from it', async () => {
    const path = '/api/v1/intraday.csv?hours=2';
    const [miss, hit, head] = [await raw(app, path), await raw(app, path), await raw(app, path, {}, 'HEAD')];
    expect([miss, hit, head].map((r) => r.headers['x-cache'])).toEqual(['MISS', 'HIT', 'HIT']);
    expect(hit.body.equals(miss.body)).toBe(true);
    expect(miss.body.toString()).toMatch(/^time,price\r\n/);
    expect(hit.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(hit.headers['x-data-state']).toBe(miss.headers['x-data-state']);
    expect(hit.headers['cdn-cache-control']).toBe('max-age=60, stale-while-revalidate=60');
    expect((await raw(app, '/api/v1/intraday?hours=2')).headers['x-cache']).toBe('MISS');
  });

  it('a throwaway parameter bypasses the stored copy and gets a fresh render', async () => {
    await raw(app, '/api/v1/spot?compact=1');
    const bypass = await raw(app, `/api/v1/spot?compact=1&nocache=${Date.now()}`);
    expect(bypass.headers['x-cache']).toBe('MISS');
  });

  it('errors are never stored', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await raw(app, '/api/v1/spot?currency=XYZ');
      expect(r.status).toBe(400);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['cdn-cache-control']).toBeUndefined();
      expect(r.headers['x-cache']).not.toBe('HIT');
    }
  });

  it('/mcp never goes through it', async () => {
    const list = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-cache')).toBeNull();
    expect(list.headers.get('cache-control')).toBe('no-store');
    const get = await raw(app, '/mcp');
    expect(get.headers['x-cache']).toBeUndefined();
    expect(get.headers['cache-control']).toBe('no-store');
  });

  it('the cron route is never stored', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await raw(app, '/api/cron/sample');
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-cache']).not.toBe('HIT');
    }
  });

  it('widget pages, OpenAPI and llms.txt are stored for their data’s N', async () => {
    for (const [path, n] of [
      ['/widgets/price', 30],
      ['/widgets/chart', 60],
      ['/widgets/converter', 30],
      ['/api/openapi.json', 3600],
      ['/llms.txt', 3600],
    ] as const) {
      await raw(app, path);
      const again = await raw(app, path);
      expect(again.headers['x-cache'], path).toBe('HIT');
      expect(again.headers['cache-control'], path).toBe(`public, max-age=${n}`);
      expect(again.headers['cdn-cache-control'], path).toBe(`max-age=${n}, stale-while-revalidate=${n}`);
    }
  });
});

describe('widget scripts through the cache (decisions §29)', () => {
  it('a /w/ script is open to every origin on a miss and on a hit: a sandboxed frame (origin null) loads it', async () => {
    const page = (await raw(app, '/widgets/price')).body.toString();
    const script = /<script type="module" src="(\/w\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const miss = await raw(app, script!, { origin: 'null' });
    const hit = await raw(app, script!, { origin: 'null' });
    expect(miss.status).toBe(200);
    expect(hit.headers['x-cache']).toBe('HIT');
    for (const r of [miss, hit]) {
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });
});

describe('revalidation through npm start (decisions §23)', () => {
  it('a client holding the answer gets 304 from the stored copy, with the same validators and cache headers; docs pages too', async () => {
    for (const path of ['/api/v1/spot?compact=1&currency=CHF', '/api/v1/history.csv?series=spot', '/llms.txt', '/widgets/price?currency=CHF']) {
      await raw(app, path, { 'accept-encoding': 'br' });
      // Compared with a stored copy's 200 (a miss's headers are the compression layer's, live).
      const first = await raw(app, path, { 'accept-encoding': 'br' });
      expect(first.status, path).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag, path).toMatch(/^W\/"/);
      const again = await raw(app, path, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['x-cache']).toBe('HIT');
      for (const h of ['etag', 'last-modified', 'cache-control', 'cdn-cache-control', 'vary', 'access-control-allow-origin'])
        expect(again.headers[h], `${path} ${h}`).toEqual(first.headers[h]);
      if (first.headers['last-modified']) {
        const byDate = await raw(app, path, { 'if-modified-since': String(first.headers['last-modified']) });
        expect(byDate.status, path).toBe(304);
      }
    }
    // A conditional first request (nothing stored yet) is answered 304 too, and leaves a whole copy behind.
    const path = '/api/v1/spot?compact=1&currency=NOK';
    const etag = String((await raw(app, `${path}&probe=1`)).headers.etag);
    const cold = await raw(app, path, { 'if-none-match': etag });
    expect(cold.status).toBe(304);
    const whole = await raw(app, path);
    expect(whole).toMatchObject({ status: 200, headers: { 'x-cache': 'HIT', etag } });
    // The docs pages are the framework's own: an ETag, and 304 on it.
    const docs = await raw(app, '/docs/api');
    expect((await raw(app, '/docs/api', { 'if-none-match': String(docs.headers.etag) })).status).toBe(304);
  });
});

describe('a stale gold price is never served longer than the headers allow', () => {
  it('an upstream outage turns into `stale` answers within N + N seconds', async () => {
    // Every cache at 2 s: the price feed, and N of the headers.
    const f = await FakeUpstream.start();
    const a = await App.start({ env: { ...f.env(), RESPONSE_CACHE: 'on', CACHE_TTL_S: '2' } });
    try {
      const path = '/api/v1/spot?compact=1';
      const first = await raw(a, path);
      expect(first.headers['cdn-cache-control']).toBe('max-age=2, stale-while-revalidate=2');
      const firstMadeAt = Date.parse(JSON.parse(first.body.toString()).updated_at);
      // Both live gold sources down.
      f.set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' });
      // Judged on the server's own clock (each answer's Date, when it was sent), so a test process that a loaded
      // machine starves sees fewer answers but judges each one right.
      let sawStale = false;
      const loopStarted = Date.now();
      while (Date.now() - loopStarted < 20_000) {
        const r = await raw(a, path);
        const body = JSON.parse(r.body.toString());
        if (body.stale === true) {
          // The newest last real price of either source: one of the two the first answer showed.
          expect(JSON.parse(first.body.toString()).sources.map((x: { price_usd_oz: number }) => x.price_usd_oz)).toContain(body.spot_usd_oz);
          sawStale = true;
          break;
        }
        // An answer still saying fresh is never a copy kept longer than max-age plus stale-while-revalidate (its
        // Age), nor sent more than that after it was made, nor after the first answer's N + N (plus a second to
        // make it): Date is the second it was sent, at most that.
        const sentAt = Date.parse(String(r.headers.date));
        expect(Number(r.headers.age), JSON.stringify(r.headers)).toBeLessThanOrEqual(4);
        expect(sentAt - Date.parse(body.updated_at), JSON.stringify(r.headers)).toBeLessThanOrEqual(4000 + 1000);
        expect(sentAt - firstMadeAt, JSON.stringify(r.headers)).toBeLessThanOrEqual(4000 + 1000);
        await sleep(200);
      }
      expect(sawStale).toBe(true);
    } finally {
      await a.stop();
      await f.close();
    }
  });

  it('a 503 while the price was never seen is not kept once the upstream answers', async () => {
    const f = await FakeUpstream.start();
    f.set('gold', { mode: 'status', status: 500 }).set('quotes', { mode: 'status', status: 500 });
    const a = await App.start({ env: { ...f.env(), RESPONSE_CACHE: 'on' } });
    try {
      expect((await raw(a, '/api/v1/spot?compact=1')).status).toBe(503);
      f.reset();
      const r = await raw(a, '/api/v1/spot?compact=1');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString()).spot_usd_oz).toBe(gold.price);
    } finally {
      await a.stop();
      await f.close();
    }
  });
});

describe('RESPONSE_CACHE=off', () => {
  it('every request reaches the app and no X-Cache is sent', async () => {
    const f = await FakeUpstream.start();
    const a = await App.start({ env: { ...f.env(), RESPONSE_CACHE: 'off' } });
    try {
      const one = await raw(a, '/api/v1/spot?compact=1');
      await sleep(5);
      const two = await raw(a, '/api/v1/spot?compact=1');
      expect(one.headers['x-cache']).toBeUndefined();
      expect(two.headers['x-cache']).toBeUndefined();
      expect(two.headers['cdn-cache-control']).toBe('max-age=30, stale-while-revalidate=30');
      expect(JSON.parse(two.body.toString()).updated_at).not.toBe(JSON.parse(one.body.toString()).updated_at);
    } finally {
      await a.stop();
      await f.close();
    }
  });
});
