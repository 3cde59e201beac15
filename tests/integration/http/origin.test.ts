import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';
import { rawRequest } from '../../support/raw-http';

// The origin in every link the app writes (widget attribution, spot `docs`, OpenAPI `servers`,
// llms.txt, docs page samples, MCP results), against hostile forwarded headers: honoured only behind
// a trusted proxy and only when well-formed; PUBLIC_URL over everything.

let fake: FakeUpstream;
/** No proxy trusted, and a PUBLIC_URL that is not an origin (ignored, with a warning). */
let plain: App;
/** TRUST_PROXY=1. */
let trusted: App;
/** PUBLIC_URL set, behind a trusted proxy. */
let pinned: App;
const PUBLIC_URL = 'https://gold.example';

beforeAll(async () => {
  fake = await FakeUpstream.start();
  [plain, trusted, pinned] = await Promise.all([
    App.start({ env: { ...fake.env(), PUBLIC_URL: 'javascript:alert(1)//' } }),
    App.start({ env: { ...fake.env(), TRUST_PROXY: '1' } }),
    App.start({ env: { ...fake.env(), TRUST_PROXY: '1', PUBLIC_URL: `${PUBLIC_URL}/` } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), trusted?.stop(), pinned?.stop()]);
  await fake?.close();
});

/** Header values as bytes on the wire: UTF-8 written as latin1 so the socket carries it unchanged. */
const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

const HOSTILE_SCHEMES = ['javascript', 'data', 'ftp', 'https://evil.example', 'javascript:alert(1)//'];
const HOSTILE_HOSTS = [
  'evil.example/%0aalert(1)//',
  'evil.example%0d%0aSet-Cookie:%20a=b',
  bytes('évil.example'),
  bytes('evil.exam\u2028ple'),
  'user@evil.example',
  'evil.example:99999',
  'evil.example:0',
  'evil.example:80:80',
  '[evil.example]',
  'evil.example\\@good.example',
  '"><script>alert(1)</script>',
];
/** Every hostile host, each with a hostile scheme beside it. */
const HOSTILE = HOSTILE_HOSTS.map((host, i) => ({ 'X-Forwarded-Proto': HOSTILE_SCHEMES[i % HOSTILE_SCHEMES.length], 'X-Forwarded-Host': host }));
const WELL_FORMED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'proxied.example' };

async function get(app: App, target: string, headers: Record<string, string>) {
  const res = await rawRequest(app.url, { method: 'GET', target, headers: { Connection: 'close', ...headers } });
  expect(res.status, target).toBe(200);
  return res;
}

/** The origin each kind of link was built from, read the way a user would find it. */
async function originsIn(app: App, headers: Record<string, string>): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  found.spot = JSON.parse((await get(app, '/api/v1/spot?compact=1', headers)).body).docs.replace(/\/docs$/, '');
  found.openapi = JSON.parse((await get(app, '/api/openapi.json', headers)).body).servers[0].url;
  found.llms = (await get(app, '/llms.txt', headers)).body.match(/\[OpenAPI 3\.1 document\]\((.*)\/api\/openapi\.json\)/)?.[1] ?? 'missing';
  for (const widget of ['price', 'chart', 'converter']) {
    const html = (await get(app, `/widgets/${widget}`, headers)).body;
    found[`widget ${widget}`] = html.match(/<a href="([^"]*)\/" target="_blank" rel="noopener">Gold API<\/a>/)?.[1] ?? 'missing';
  }
  const samples: Record<string, RegExp> = {
    '/docs': /<code>curl &#x27;(.*?)\/api\/v1\/spot\?/,
    '/docs/api': /Base URL <code>(.*?)<\/code>/,
    '/docs/mcp': /claude mcp add --transport http gold (.*?)\/mcp</,
    '/docs/widgets': /&lt;script src=&quot;(.*?)\/embed\.js&quot;/,
    '/developers': /<code>curl &#x27;(.*?)\/api\/v1\/spot\?/,
  };
  for (const [page, sample] of Object.entries(samples)) {
    const html = (await get(app, page, headers)).body;
    found[`page ${page}`] = html.match(sample)?.[1] ?? 'missing';
    expect(html, page).not.toMatch(/evil|javascript:\/\/|data:\/\/|ftp:\/\//);
  }
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_gold_price', arguments: {} } });
  const mcp = await rawRequest(app.url, {
    method: 'POST',
    target: '/mcp',
    headers: {
      ...headers,
      Connection: 'close',
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Content-Length': String(call.length),
    },
    body: call,
  });
  found.mcp = JSON.parse(mcp.body).result.structuredContent.docs.replace(/\/docs$/, '');
  return found;
}

function expectAll(found: Record<string, string>, origin: string, label: string) {
  for (const [where, value] of Object.entries(found)) expect(value, `${label}: ${where}`).toBe(origin);
}

describe('origin: no proxy trusted', () => {
  it('links use the request Host, whatever the forwarded headers say', async () => {
    expectAll(await originsIn(plain, {}), plain.url, 'no forwarded headers');
    expectAll(await originsIn(plain, WELL_FORMED), plain.url, 'well-formed forwarded headers');
    for (const headers of HOSTILE) expectAll(await originsIn(plain, headers), plain.url, JSON.stringify(headers));
  });

  it('a malformed Host never reaches a link either', async () => {
    for (const host of HOSTILE_HOSTS) {
      const res = await rawRequest(plain.url, { method: 'GET', target: '/widgets/price', headers: { Host: host, Connection: 'close' } });
      expect(res.status).toBe(200);
      const link = res.body.match(/<a href="([^"]*)" target="_blank" rel="noopener">Gold API<\/a>/)?.[1];
      expect(link, host).toMatch(/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/$/);
    }
  });

  it('an invalid PUBLIC_URL is ignored with a warning', () => {
    expect(plain.output).toContain('PUBLIC_URL ignored');
  });

  it('cacheable responses with links do not vary on headers that cannot change them', async () => {
    for (const target of ['/api/v1/spot?compact=1', '/api/openapi.json', '/llms.txt', '/widgets/price']) {
      const res = await get(plain, target, {});
      expect(res.headers.vary ?? '', target).not.toMatch(/x-forwarded/i);
    }
  });
});

describe('origin: behind a trusted proxy (TRUST_PROXY=1)', () => {
  it('well-formed forwarded headers are honoured in every link', async () => {
    expectAll(await originsIn(trusted, WELL_FORMED), 'https://proxied.example', 'well-formed');
    expectAll(
      await originsIn(trusted, { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'proxied.example:8443, inner.example' }),
      'https://proxied.example:8443',
      'chain',
    );
  });

  it('hostile schemes fall back to http and hostile hosts to the request Host', async () => {
    const own = trusted.url;
    for (const headers of HOSTILE) expectAll(await originsIn(trusted, headers), own, JSON.stringify(headers));
    expectAll(
      await originsIn(trusted, { 'X-Forwarded-Proto': 'javascript', 'X-Forwarded-Host': 'proxied.example' }),
      'http://proxied.example',
      'bad scheme, good host',
    );
    expectAll(
      await originsIn(trusted, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'user@evil.example' }),
      own.replace('http:', 'https:'),
      'good scheme, bad host',
    );
  });

  it('cacheable responses with links vary on the forwarded headers', async () => {
    for (const target of ['/api/v1/spot?compact=1', '/api/openapi.json', '/llms.txt', '/widgets/price', '/widgets/chart', '/widgets/converter']) {
      const res = await get(trusted, target, WELL_FORMED);
      expect(res.headers.vary, target).toMatch(/X-Forwarded-Proto, X-Forwarded-Host/);
    }
  });
});

describe('origin: PUBLIC_URL', () => {
  it('wins over every header, well-formed or hostile', async () => {
    expectAll(await originsIn(pinned, {}), PUBLIC_URL, 'no headers');
    expectAll(await originsIn(pinned, WELL_FORMED), PUBLIC_URL, 'well-formed');
    for (const headers of HOSTILE.slice(0, 3)) expectAll(await originsIn(pinned, headers), PUBLIC_URL, JSON.stringify(headers));
  });

  it('no Vary is needed: no request header changes a link', async () => {
    const res = await get(pinned, '/widgets/price', WELL_FORMED);
    expect(res.headers.vary ?? '').not.toMatch(/x-forwarded/i);
  });
});
