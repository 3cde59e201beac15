import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { decodePng, differingShare, inkShare } from '../../support/png';

// Pages whose data has not moved cost a 304 (decisions §25), served by npm start: the landing page, the docs and
// the widget pages answer with both caching headers and validators from the data they show, never from the clock.
// Two instances on one fake upstream, as two machines behind one CDN: `a` answers itself (every request renders),
// `b` through its response cache. The price is stamped a second before the test starts (the recorded bodies are
// months old, and a page whose "N ago" moves by the minute would hide a validator that follows the clock).

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with its own Host (both instances then build the same links, as behind one public origin). */
function raw(app: App, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + path, { headers: { host: 'gold.test', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const DOCS = ['/docs', '/docs/api', '/docs/mcp', '/docs/widgets', '/docs/data', '/docs/changelog', '/docs/recipes'];
const gold = fixture('goldapi-price-XAU.json');
const asOf = Math.floor(Date.now() / 1000) * 1000 - 1000;

let fake: FakeUpstream;
let a: App;
let b: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.set('gold', { mode: 'json', body: { ...gold, updatedAt: new Date(asOf).toISOString() } });
  // gold-api.com alone, so the price served is the one stamped above.
  fake.set('quotes', { mode: 'refuse' });
  [a, b] = await Promise.all([
    // Every cache at 1 s: each request past it reads the price again and renders the page anew.
    App.start({ env: { ...fake.env(), CACHE_TTL_S: '1' } }),
    App.start({ env: { ...fake.env(), RESPONSE_CACHE: 'on' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await fake?.close();
});

describe('site pages are cacheable (decisions §25)', () => {
  it('the landing page and every docs page: both caching headers, an ETag, 304 on it; the response cache then serves them as hits', async () => {
    for (const [path, n] of [['/developers', 30], ...DOCS.map((d) => [d, 60] as const)] as const) {
      const first = await raw(b, path);
      expect(first.status, path).toBe(200);
      expect(first.headers['cache-control'], path).toBe(`public, max-age=${n}`);
      expect(first.headers['cdn-cache-control'], path).toBe(`max-age=${n}, stale-while-revalidate=${n}`);
      expect(first.headers.etag, path).toMatch(/^W\/"[\w-]+"$/);
      const again = await raw(b, path);
      expect(again.headers['x-cache'], path).toBe('HIT');
      expect(again.body, path).toBe(first.body);
      const held = await raw(b, path, { 'if-none-match': String(first.headers.etag) });
      expect(held.status, path).toBe(304);
      expect(held.body, path).toBe('');
      // The app itself, without the cache in front, answers the same validators with a 304 too.
      const own = await raw(a, path, { 'if-none-match': String(first.headers.etag) });
      expect(own.status, path).toBe(304);
      expect(own.headers.etag, path).toBe(first.headers.etag);
    }
  });

  it('the landing page: Last-Modified is its price’s own time; the docs, which show no data, have the ETag alone', async () => {
    const landing = await raw(a, '/developers');
    expect(landing.headers['last-modified']).toBe(new Date(asOf).toUTCString());
    expect((await raw(a, '/developers', { 'if-modified-since': String(landing.headers['last-modified']) })).status).toBe(304);
    for (const path of DOCS) expect((await raw(a, path)).headers['last-modified'], path).toBeUndefined();
  });
});

describe('validators from the data, not the clock (decisions §25)', () => {
  const PAGES = ['/developers', '/widgets/price?silver=1&ratio=1', '/widgets/converter', '/widgets/chart?range=1d'];

  it('with a fresh price: the same ETag and Last-Modified over several seconds, and a 304 on revalidation', async () => {
    const first = await Promise.all(PAGES.map((p) => raw(a, p)));
    await sleep(2500);
    for (const [i, path] of PAGES.entries()) {
      const later = await raw(a, path);
      expect(later.status, path).toBe(200);
      expect(later.headers.etag, path).toBe(first[i].headers.etag);
      expect(later.headers['last-modified'], path).toBe(first[i].headers['last-modified']);
      expect(later.headers['last-modified'], path).toBe(new Date(asOf).toUTCString());
      expect((await raw(a, path, { 'if-none-match': String(first[i].headers.etag) })).status, path).toBe(304);
      expect((await raw(a, path, { 'if-modified-since': String(first[i].headers['last-modified']) })).status, path).toBe(304);
    }
    // What a validator from the rendered page would have followed: the widget's freshness line moved meanwhile.
    const fresh = (r: Raw) => r.body.match(/data-f="fresh">([^<]*)</)?.[1];
    expect(fresh(await raw(a, PAGES[1]))).not.toBe(fresh(first[1]));
  });

  it('two instances on one upstream: the same Last-Modified and the same ETag, so either answers 304 for the other’s copy', async () => {
    for (const path of PAGES) {
      const [x, y] = [await raw(a, path), await raw(b, path)];
      expect(y.headers['last-modified'], path).toBe(x.headers['last-modified']);
      expect(y.headers.etag, path).toBe(x.headers.etag);
      expect((await raw(b, path, { 'if-none-match': String(x.headers.etag) })).status, path).toBe(304);
    }
  });
});

describe('a price page’s validators follow its price (decisions §33)', () => {
  const image = async () => decodePng(Buffer.from(await (await fetch(`${a.url}/og/gold/eur/gram.png`)).arrayBuffer()));

  it('when the price moves, the ETag and Last-Modified move with it and the old ETag gets the new page, not a 304; the sharing image draws the new price', async () => {
    const path = '/gold/eur/gram';
    const drawnBefore = await image();
    // Not a blank card: its words and figures cover a fair part of it (about 4 % measured).
    expect(inkShare(drawnBefore)).toBeGreaterThan(0.02);
    const before = await raw(a, path);
    expect(before.status).toBe(200);
    expect(before.headers['last-modified']).toBe(new Date(asOf).toUTCString());
    // Another real recorded price of gold-api.com, stamped now.
    const later = fixture('goldapi-price-XAU-2026-09-03.json');
    const movedAt = asOf + 3000;
    fake.set('gold', { mode: 'json', body: { ...later, updatedAt: new Date(movedAt).toISOString() } });
    await expect.poll(async () => (await raw(a, path)).headers.etag).not.toBe(before.headers.etag);
    const after = await raw(a, path);
    expect(after.headers['last-modified']).toBe(new Date(movedAt).toUTCString());
    const spot = JSON.parse((await raw(a, '/api/v1/spot?currency=EUR&unit=gram&compact=1')).body);
    expect(spot.spot_usd_oz).toBe(later.price);
    expect(after.body).toContain(`data-f="price" data-v="${spot.xau.price}"`);
    const stale = await raw(a, path, { 'if-none-match': String(before.headers.etag) });
    expect(stale.status).toBe(200);
    expect(stale.headers.etag).toBe(after.headers.etag);
    // The image follows the price: the same card with another figure and change differs where they are drawn (about
    // 3 % of its pixels measured).
    const drawnAfter = await image();
    expect(inkShare(drawnAfter)).toBeGreaterThan(0.02);
    expect(differingShare(drawnBefore, drawnAfter)).toBeGreaterThan(0.005);
  });
});
