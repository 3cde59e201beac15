import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { publicOrigin } from '../../../lib/http/public-origin.mjs';
import { cacheKey, responseCache } from '../../../server/response-cache.mjs';
import { servers, SHARED, setup, sleep, type Answer } from './cache-harness';

// The response cache's rules, each checked by what a client sees and how often the app was asked
// (the harness: cache-harness.ts). Its memory bounds are response-cache-memory.test.ts.

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

  it('a background refresh that failed runs again on the next stale request; the stale copy is served meanwhile', async () => {
    // Renders of /r: 1 is stored; 2, the first refresh, breaks off once a client has asked the stale copy
    // for another encoding (a new variant re-stores the entry); 3, the next refresh, is a server error;
    // 4 refreshes the copy.
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const answers: Answer[] = [
      { headers: SHARED(1, 30) },
      { headers: SHARED(1, 30), until: gate, breakOff: true },
      { status: 500, headers: { 'cache-control': 'no-store' } },
      { headers: SHARED(60) },
    ];
    let n = 0;
    const { get, renders } = await setup(() => answers[n++]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = await get('/r');
      await sleep(1100);
      const stale = async () => {
        const r = await get('/r');
        expect(r.headers['x-cache']).toBe('STALE');
        expect(r.body.equals(first.body)).toBe(true);
      };
      await stale();
      expect((await get('/r', { 'accept-encoding': 'br' })).headers['x-cache']).toBe('STALE');
      release();
      await expect.poll(() => warn.mock.calls.length).toBe(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/refresh of .*\/r failed/);
      await stale();
      await expect.poll(() => warn.mock.calls.length).toBe(2);
      expect(String(warn.mock.calls[1][0])).toContain('the app answered 500');
      await stale();
      await expect.poll(() => renders['/r']).toBe(4);
      await expect.poll(async () => (await get('/r')).headers['x-cache']).toBe('HIT');
      expect((await get('/r')).body.equals(first.body)).toBe(false);
    } finally {
      warn.mockRestore();
    }
  });

  it('a render that never ends holds its key only until the deadline: the stale copy refreshes again, a waiter renders its own', async () => {
    // Renders of /h: 1 is stored; 2, its first refresh, hangs (until the end of the test); 3 refreshes it.
    // Renders of /w: 1 hangs; 2 is the waiter's own.
    let release = () => {};
    const hung = new Promise<void>((r) => (release = r));
    const answers: Record<string, Answer[]> = {
      '/h': [{ headers: SHARED(1, 30) }, { headers: SHARED(1, 30), until: hung }, { headers: SHARED(60) }],
      '/w': [{ headers: SHARED(60), until: hung }, { headers: SHARED(60) }],
    };
    const { get, renders } = await setup((req) => answers[new URL(req.url!, 'http://x').pathname].shift()!, { renderDeadlineMs: 1000 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = await get('/h');
      await sleep(1100);
      expect((await get('/h')).headers['x-cache']).toBe('STALE');
      await expect.poll(() => renders['/h']).toBe(2);
      // The hung refresh holds the key: stale requests start no other.
      expect((await get('/h')).headers['x-cache']).toBe('STALE');
      expect(renders['/h']).toBe(2);
      await sleep(1100);
      expect((await get('/h')).headers['x-cache']).toBe('STALE');
      await expect.poll(() => renders['/h']).toBe(3);
      await expect.poll(async () => (await get('/h')).headers['x-cache']).toBe('HIT');
      expect((await get('/h')).body.equals(first.body)).toBe(false);

      const t0 = Date.now();
      const stuck = get('/w');
      await expect.poll(() => renders['/w']).toBe(1);
      const waiter = await get('/w');
      expect(waiter.status).toBe(200);
      // It waited on the hung render until the deadline (which started after t0), then rendered its own.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(995);
      expect(renders['/w']).toBe(2);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/render of .*\/h still running after 1 s/),
          expect.stringMatching(/render of .*\/w still running/),
        ]),
      );
      release();
      expect((await stuck).status).toBe(200);
    } finally {
      release();
      warn.mockRestore();
    }
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

describe('off', () => {
  it('turned off, the app is served as it is', () => {
    const app = () => {};
    expect(responseCache(app, { enabled: false })).toBe(app);
  });
});

describe('conditional requests (decisions §23)', () => {
  const VALIDATED = { ...SHARED(60), etag: 'W/"v1"', 'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT' };

  it('a client holding the stored answer gets 304 from memory: no body, the same validators and cache headers', async () => {
    const { get, renders } = await setup(() => ({ headers: VALIDATED }));
    const first = await get('/c', { 'accept-encoding': 'gzip' });
    const conditions: Record<string, string>[] = [
      { 'if-none-match': 'W/"v1"' },
      { 'if-none-match': '"v0", "v1"' },
      { 'if-modified-since': 'Wed, 25 Nov 2026 10:00:00 GMT' },
    ];
    for (const headers of conditions) {
      const r = await get('/c', { ...headers, 'accept-encoding': 'gzip' });
      expect(r.status, JSON.stringify(headers)).toBe(304);
      expect(r.body.length).toBe(0);
      expect(r.headers['x-cache']).toBe('HIT');
      expect(r.headers['content-encoding']).toBeUndefined();
      for (const h of ['etag', 'last-modified', 'cache-control', 'cdn-cache-control', 'vary']) expect(r.headers[h], h).toBe(first.headers[h]);
    }
    // Another tag, or an older date: the whole answer.
    expect((await get('/c', { 'if-none-match': 'W/"v0"' })).status).toBe(200);
    expect((await get('/c', { 'if-modified-since': 'Wed, 25 Nov 2026 09:59:59 GMT' })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get('/c', { 'if-none-match': 'W/"v0"', 'if-modified-since': 'Wed, 25 Nov 2026 11:00:00 GMT' })).status).toBe(200);
    expect(renders['/c']).toBe(1);
  });

  it('a conditional miss: the app renders the whole answer (no validators forwarded), it is stored, and the client gets its 304', async () => {
    const seen: (string | undefined)[] = [];
    const { get, renders } = await setup((req) => {
      seen.push(req.headers['if-none-match']);
      return { headers: VALIDATED };
    });
    const r = await get('/m', { 'if-none-match': 'W/"v1"' });
    expect(r.status).toBe(304);
    expect(seen).toEqual([undefined]);
    const whole = await get('/m');
    expect(whole.status).toBe(200);
    expect(whole.headers['x-cache']).toBe('HIT');
    expect(whole.body.length).toBeGreaterThan(1000);
    expect(renders['/m']).toBe(1);
  });

  it('answers without a validator, and errors, are never a 304', async () => {
    const { get } = await setup((req) => (req.url === '/e' ? { status: 500, headers: { 'cache-control': 'no-store' } } : { headers: SHARED(60) }));
    await get('/n');
    expect((await get('/n', { 'if-none-match': '*' })).status).toBe(200);
    expect((await get('/e', { 'if-none-match': '*' })).status).toBe(500);
  });
});
