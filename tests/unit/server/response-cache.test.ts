import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import compression from 'compression';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicOrigin } from '../../../lib/http/public-origin.mjs';
import { cacheKey, responseCache, type Middleware } from '../../../server/response-cache.mjs';

// The response cache of `npm start` in front of a small app whose answers each test chooses, with the
// same compression layer as server.mjs, so every caching rule is checked by what a client sees and
// by how often the app was asked.

type Answer = { status?: number; headers?: Record<string, string>; body?: string; delayMs?: number; until?: Promise<unknown> };

/** A body large enough to be compressed (over 1 KB), different on every render. */
const big = (label: string) => JSON.stringify({ label, at: process.hrtime.bigint().toString(), pad: 'x'.repeat(3000) });
const SHARED = (n: number, swr = n) => ({
  'cache-control': `public, max-age=${n}`,
  'cdn-cache-control': `max-age=${n}, stale-while-revalidate=${swr}`,
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  vi.unstubAllEnvs();
});

/** Serves `answer(req)` behind the cache; counts what reaches the app per path. */
async function setup(answer: (req: http.IncomingMessage) => Answer, opts: { maxBytes?: number } = {}) {
  const renders: Record<string, number> = {};
  const app = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    renders[path] = (renders[path] ?? 0) + 1;
    const a = answer(req);
    const reply = () => {
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...a.headers });
      res.end(a.body ?? big(path));
    };
    if (a.until) void a.until.then(reply);
    else if (a.delayMs) setTimeout(reply, a.delayMs);
    else reply();
  };
  const compress = compression({ threshold: 1024 }) as unknown as Middleware;
  const cached = responseCache(app, { enabled: true, compress, ...opts });
  const server = http.createServer(cached);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Raw>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  return { get, renders, cached };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hit and miss', () => {
  it('the first request renders, the next ones are served from memory with Age', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    const first = await get('/a');
    const second = await get('/a');
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(Number(second.headers.age)).toBeGreaterThanOrEqual(0);
    expect(second.headers['cache-control']).toBe('public, max-age=60');
    expect(renders['/a']).toBe(1);
  });

  it('a throwaway query parameter is another key: the app is asked again', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    await get('/a?x=1');
    expect((await get('/a?x=1')).headers['x-cache']).toBe('HIT');
    expect((await get('/a?x=1&t=9')).headers['x-cache']).toBe('MISS');
    expect(renders['/a']).toBe(2);
  });

  it('the key is the public origin, the path and the full query string', () => {
    const req = (host: string, url: string, more: Record<string, string> = {}) =>
      ({ headers: { host, ...more }, url }) as unknown as http.IncomingMessage;
    expect(cacheKey(req('A.example:3000', '/api/v1/spot?b=2&a=1'))).toBe('http://a.example:3000/api/v1/spot?b=2&a=1');
    expect(cacheKey(req('b.example', '/x'))).not.toBe(cacheKey(req('a.example', '/x')));
    // Untrusted forwarded headers change no link, so they change no key either.
    expect(cacheKey(req('a.example', '/x', { 'x-forwarded-host': 'evil.example' }))).toBe(cacheKey(req('a.example', '/x')));
    vi.stubEnv('TRUST_PROXY', '1');
    expect(cacheKey(req('a.example', '/x', { 'x-forwarded-host': 'gold.example', 'x-forwarded-proto': 'https' }))).toBe('https://gold.example/x');
    vi.stubEnv('PUBLIC_URL', 'https://api.gold.example');
    expect(cacheKey(req('anything.example', '/x'))).toBe('https://api.gold.example/x');
  });

  // The app below builds its links as the real one does, from the public origin.
  const linking = (r: http.IncomingMessage) => ({ headers: SHARED(60), body: `docs at ${publicOrigin(r.headers)}/docs` });

  it('a forged forwarded host neither reaches a stored answer nor gets one of its own', async () => {
    const { get, renders } = await setup(linking);
    await get('/o');
    const forged = await get('/o', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(forged.headers['x-cache']).toBe('HIT');
    expect(forged.body.toString()).not.toContain('evil');
    expect(renders['/o']).toBe(1);
  });

  it('behind a trusted proxy, an answer made for one forwarded origin is not served to another', async () => {
    vi.stubEnv('TRUST_PROXY', '1');
    const { get, renders } = await setup(linking);
    const a = await get('/o', { 'x-forwarded-host': 'a.example', 'x-forwarded-proto': 'https' });
    const b = await get('/o', { 'x-forwarded-host': 'b.example', 'x-forwarded-proto': 'https' });
    expect(a.body.toString()).toContain('https://a.example/docs');
    expect(b.headers['x-cache']).toBe('MISS');
    expect(b.body.toString()).toContain('https://b.example/docs');
    expect((await get('/o', { 'x-forwarded-host': 'a.example', 'x-forwarded-proto': 'https' })).headers['x-cache']).toBe('HIT');
    expect(renders['/o']).toBe(2);
  });

  it('concurrent misses of one key make one render, shared by all', async () => {
    // The render ends only once all 50 have arrived (one arriving later would rightly be a hit).
    let arrived = 0;
    let allIn = () => {};
    const until = new Promise<void>((r) => (allIn = r));
    const { get, renders } = await setup(() => ({ headers: SHARED(60), until }));
    servers.at(-1)!.on('request', () => ++arrived === 50 && allIn());
    const all = await Promise.all(Array.from({ length: 50 }, () => get('/slow')));
    expect(renders['/slow']).toBe(1);
    expect(new Set(all.map((r) => r.body.toString())).size).toBe(1);
    expect(all.map((r) => `${r.status} ${r.headers['x-cache']}`)).toEqual(all.map(() => '200 MISS'));
  });

  it('a request that says no-cache is rendered again and refreshes the entry', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    await get('/a');
    const forced = await get('/a', { 'cache-control': 'no-cache' });
    expect(forced.headers['x-cache']).toBe('MISS');
    expect((await get('/a')).body.equals(forced.body)).toBe(true);
    expect(renders['/a']).toBe(2);
  });
});

describe('one variant per encoding, compressed once', () => {
  it('identity, gzip and brotli each decompress to the same body; the app renders once', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    const identity = await get('/v', { 'accept-encoding': 'identity' });
    const gzip = await get('/v', { 'accept-encoding': 'gzip' });
    const br = await get('/v', { 'accept-encoding': 'gzip, br' });
    const none = await get('/v');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(identity.body.length);
    // The first is the miss, served as the app serves it; the stored variants carry their length.
    expect(identity.headers['x-cache']).toBe('MISS');
    for (const r of [gzip, br, none]) {
      expect(r.headers['x-cache']).toBe('HIT');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
    }
    for (const r of [identity, gzip, br, none]) expect(r.headers.vary).toBe('Accept-Encoding');
    expect(renders['/v']).toBe(1);
  });

  it('a header with several values keeps each of them', async () => {
    const { get } = await setup(() => ({ headers: { ...SHARED(60), link: ['</a>; rel=preload', '</b>; rel=preload'] as unknown as string } }));
    await get('/l');
    const hit = await get('/l', { 'accept-encoding': 'br' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers.link).toBe('</a>; rel=preload, </b>; rel=preload');
  });

  it('q-values are honoured: gzip when brotli is refused', async () => {
    const { get } = await setup(() => ({ headers: SHARED(60) }));
    expect((await get('/q', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('a small body is served as is, whatever the client accepts', async () => {
    const { get } = await setup(() => ({ headers: SHARED(60), body: '{"ok":true}' }));
    await get('/s');
    const r = await get('/s', { 'accept-encoding': 'br, gzip' });
    expect(r.headers['x-cache']).toBe('HIT');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe('{"ok":true}');
  });
});

describe('HEAD', () => {
  it('is answered from the GET entry, headers only, with the length of the chosen variant', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    await get('/h');
    const full = await get('/h', { 'accept-encoding': 'br' });
    expect(full.headers['x-cache']).toBe('HIT');
    const head = await get('/h', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['x-cache']).toBe('HIT');
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(full.body.length);
    expect(renders['/h']).toBe(1);
  });

  it('a HEAD first fills the entry a later GET is served from', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    expect((await get('/h2', {}, 'HEAD')).body.length).toBe(0);
    const after = await get('/h2');
    expect(after.headers['x-cache']).toBe('HIT');
    expect(after.body.length).toBeGreaterThan(1000);
    expect(renders['/h2']).toBe(1);
  });
});

describe('lifetime', () => {
  it('past max-age, within stale-while-revalidate: the old copy at once, one background refresh', async () => {
    // The refresh outlasts the time the 10 stale requests take to arrive, even on a busy machine.
    const { get, renders } = await setup(() => ({ headers: SHARED(1, 3), delayMs: 400 }));
    const first = await get('/swr');
    await sleep(1000);
    const stale = await Promise.all(Array.from({ length: 10 }, () => get('/swr')));
    expect(stale.every((r) => r.headers['x-cache'] === 'STALE' && r.body.equals(first.body))).toBe(true);
    await expect.poll(() => renders['/swr'], { timeout: 2000 }).toBe(2);
    await sleep(600);
    expect(renders['/swr']).toBe(2);
    const refreshed = await get('/swr');
    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(refreshed.body.equals(first.body)).toBe(false);
  });

  it('past max-age and stale-while-revalidate: a miss that waits for a new render', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(1, 1) }));
    const first = await get('/exp');
    await sleep(2200);
    const later = await get('/exp');
    expect(later.headers['x-cache']).toBe('MISS');
    expect(later.body.equals(first.body)).toBe(false);
    expect(renders['/exp']).toBe(2);
  });

  it('CDN-Cache-Control rules for the shared cache, over Cache-Control', async () => {
    const { get, renders } = await setup((req) =>
      req.url === '/cdn-longer'
        ? { headers: { 'cache-control': 'public, max-age=0', 'cdn-cache-control': 'max-age=60' } }
        : { headers: { 'cache-control': 'public, max-age=60', 'cdn-cache-control': 'max-age=0' } },
    );
    await get('/cdn-longer');
    expect((await get('/cdn-longer')).headers['x-cache']).toBe('HIT');
    await get('/cdn-shorter');
    await get('/cdn-shorter');
    expect(renders['/cdn-longer']).toBe(1);
    expect(renders['/cdn-shorter']).toBe(2);
  });
});

describe('never stored', () => {
  const cases: [string, Answer][] = [
    ['no-store', { headers: { 'cache-control': 'no-store' } }],
    ['private', { headers: { 'cache-control': 'private, max-age=60' } }],
    ['private in the CDN header', { headers: { 'cache-control': 'public, max-age=60', 'cdn-cache-control': 'private' } }],
    ['Set-Cookie', { headers: { ...SHARED(60), 'set-cookie': 'id=1' } }],
    ['an error', { status: 503, headers: SHARED(60) }],
    ['a 404', { status: 404, headers: SHARED(60) }],
    ['no caching header at all', { headers: {} }],
  ];
  for (const [label, answer] of cases) {
    it(`${label}: every request reaches the app`, async () => {
      const { get, renders } = await setup(() => answer);
      const first = await get('/n');
      const second = await get('/n');
      expect(first.status).toBe(answer.status ?? 200);
      expect(second.headers['x-cache']).not.toBe('HIT');
      expect(second.body.equals(first.body)).toBe(false);
      expect(renders['/n']).toBe(2);
    });
  }

  it('a personal answer is not shared with requests that waited on the same render', async () => {
    let n = 0;
    const { get, renders } = await setup(() => ({ headers: { 'cache-control': 'private' }, body: `user ${++n}`, delayMs: 50 }));
    const all = await Promise.all(Array.from({ length: 5 }, () => get('/me')));
    expect(new Set(all.map((r) => r.body.toString())).size).toBe(5);
    expect(renders['/me']).toBe(5);
  });

  it('/mcp and other methods pass through untouched', async () => {
    const { get, renders } = await setup(() => ({ headers: SHARED(60) }));
    for (const [path, method] of [
      ['/mcp', 'GET'],
      ['/mcp', 'GET'],
      ['/mcp?x=1', 'GET'],
      ['/p', 'POST'],
      ['/p', 'POST'],
      ['/p', 'DELETE'],
    ]) {
      const r = await get(path, {}, method);
      expect(r.headers['x-cache'], `${method} ${path}`).toBeUndefined();
    }
    expect(renders['/mcp']).toBe(3);
    expect(renders['/p']).toBe(3);
  });
});

describe('Vary', () => {
  it('an entry serves only requests that match the headers it varies on', async () => {
    const { get } = await setup((req) => ({ headers: { ...SHARED(60), vary: 'X-Lang' }, body: `lang ${req.headers['x-lang']}` }));
    expect((await get('/lang', { 'x-lang': 'en' })).body.toString()).toBe('lang en');
    const en = await get('/lang', { 'x-lang': 'en' });
    expect(en.headers['x-cache']).toBe('HIT');
    const fr = await get('/lang', { 'x-lang': 'fr' });
    expect(fr.body.toString()).toBe('lang fr');
    expect(fr.headers['x-cache']).toBe('MISS');
  });

  it('a waiter whose headers differ from the render it waited on gets its own render', async () => {
    const { get, renders } = await setup((req) => ({
      headers: { ...SHARED(60), vary: 'X-Lang' },
      body: `lang ${req.headers['x-lang']}`,
      delayMs: 50,
    }));
    const [en, fr] = await Promise.all([get('/w', { 'x-lang': 'en' }), get('/w', { 'x-lang': 'fr' })]);
    expect(en.body.toString()).toBe('lang en');
    expect(fr.body.toString()).toBe('lang fr');
    expect(renders['/w']).toBe(2);
  });
});

describe('memory', () => {
  it('many distinct keys never hold more than the bound; the least recently used go first', async () => {
    const maxBytes = 64 * 1024;
    const { get, cached } = await setup(() => ({ headers: SHARED(60) }), { maxBytes });
    for (let i = 0; i < 300; i++) {
      await get(`/k?i=${i}`);
      expect(cached.bytes!()).toBeLessThanOrEqual(maxBytes);
    }
    expect(cached.bytes!()).toBeGreaterThan(maxBytes / 2);
    expect((await get('/k?i=299')).headers['x-cache']).toBe('HIT');
    expect((await get('/k?i=0')).headers['x-cache']).toBe('MISS');
  });

  // The headers of a real spot answer, so an entry here weighs what one weighs in production.
  const REAL = (i: number) => ({
    ...SHARED(30),
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'content-security-policy': "frame-ancestors 'none'",
    'x-data-state': 'fresh',
    'x-updated-at': new Date(1_700_000_000_000 + i).toISOString(),
    link: '<https://gold.example/api/openapi.json>; rel="service-desc"',
  });
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  /** Heap and ArrayBuffer bytes in use once garbage is collected. */
  const inUse = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(20);
    }
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  /** Fills `n` keys, asking every other one in gzip and brotli as well, so entries hold one to three variants. */
  const fill = async (get: (p: string, h?: Record<string, string>) => Promise<Raw>, n: number, prefix: string) => {
    for (let i = 0; i < n; i++) {
      await get(`/m?${prefix}=${i}`);
      if (i % 2 === 0) {
        await get(`/m?${prefix}=${i}`, { 'accept-encoding': 'gzip' });
        await get(`/m?${prefix}=${i}`, { 'accept-encoding': 'br' });
      }
    }
  };

  it('accounting covers what an entry keeps alive: buffers, header arrays, policy, request headers', async () => {
    let i = 0;
    const { get, cached } = await setup(() => ({ headers: REAL(i++) }), { maxBytes: 2 ** 30 });
    await fill(get, 100, 'warm');
    const before = await inUse();
    const counted = cached.bytes!();
    await fill(get, 1500, 'k');
    const held = (await inUse()) - before;
    const accounted = cached.bytes!() - counted;
    // Every byte the entries keep alive is counted; and the count is near what they hold, not a guess
    // far above it that would leave the bound half used.
    expect(accounted).toBeGreaterThanOrEqual(held);
    expect(held).toBeGreaterThan(accounted * 0.5);
  });

  it('nothing outlives its eviction: the heap grows by no more than the bound, however many keys go through', async () => {
    const maxBytes = 2 * 2 ** 20;
    let i = 0;
    const { get, cached } = await setup(() => ({ headers: REAL(i++) }), { maxBytes });
    await fill(get, 100, 'warm');
    const before = (await inUse()) - cached.bytes!();
    // About six times the bound goes through the cache.
    await fill(get, 2500, 'k');
    expect(cached.bytes!()).toBeLessThanOrEqual(maxBytes);
    expect((await inUse()) - before).toBeLessThanOrEqual(maxBytes * 1.25);
  });

  it('a variant is compressed only when a client first asks for it, and the entry is weighed again with it', async () => {
    const { get, cached } = await setup(() => ({ headers: SHARED(60) }));
    const miss = await get('/c', { 'accept-encoding': 'br' });
    // The miss was compressed for its client by the compression layer, as without the cache.
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.headers['content-encoding']).toBe('br');
    const identityOnly = cached.bytes!();
    const br = await get('/c', { 'accept-encoding': 'br' });
    expect(br.headers['x-cache']).toBe('HIT');
    const withBr = cached.bytes!();
    expect(withBr - identityOnly).toBeGreaterThanOrEqual(br.body.length);
    await get('/c', { 'accept-encoding': 'br' });
    expect(cached.bytes!()).toBe(withBr);
    expect(brotliDecompressSync(br.body).equals(brotliDecompressSync(miss.body))).toBe(true);
  });

  it('a client gone before the app ends leaves nothing stored, and the next request renders', async () => {
    let n = 0;
    const { get, renders, cached } = await setup(() => ({ headers: SHARED(60), delayMs: ++n === 1 ? 500 : 0 }));
    const server = servers.at(-1)!;
    const seen = new Promise<void>((r) => server.once('request', () => r()));
    const gone = http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/gone' });
    gone.on('error', () => {});
    await seen;
    gone.destroy();
    await sleep(700);
    expect(cached.bytes!()).toBe(0);
    const next = await get('/gone');
    expect(next.status).toBe(200);
    expect(next.headers['x-cache']).toBe('MISS');
    expect(renders['/gone']).toBe(2);
    expect(cached.bytes!()).toBeGreaterThan(0);
  });

  it('turned off, the app is served as it is', () => {
    const app = () => {};
    expect(responseCache(app, { enabled: false })).toBe(app);
  });
});
