import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataState } from '@/lib/schemas/common';
import { App, ROOT } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';
import { abandonedUpload, rawRequest, type RawResponse } from '../../support/raw-http';

// Every method on every kind of path, sent byte for byte over a socket (client libraries refuse
// or rewrite some of them): the documented status, body and headers, and never a 5xx.

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'PROPFIND',
  'MOVE',
  'PURGE',
  'SEARCH',
  'LINK',
  'UNLINK',
  'MKCOL',
  'get',
  'post',
  'FOO',
  'X-SCAN',
];

type Kind = 'rest' | 'document' | 'mcp' | 'page' | 'embed' | 'static' | 'unknown-api';

let fake: FakeUpstream;
let app: App;
const paths: { path: string; kind: Kind; get: number }[] = [];

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: { ...fake.env(), CRON_SECRET: 'methods-test-secret' } });
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'widgets/manifest.json'), 'utf8')) as Record<string, string>;
  const docs = await (await app.get('/docs')).text();
  // The site's stylesheet: the framework's static files (its pages send no script).
  const nextStatic = docs.match(/\/_next\/static\/[^"']+\.css/)?.[0];
  if (!nextStatic) throw new Error('no /_next/static stylesheet in /docs');
  paths.push(
    { path: '/api/v1/spot?compact=1', kind: 'rest', get: 200 },
    { path: '/api/v1/reserves', kind: 'rest', get: 200 },
    { path: '/api/v1/intraday.csv', kind: 'rest', get: 200 },
    // One number as text; a 405 there is the same JSON.
    { path: '/api/v1/price.txt', kind: 'rest', get: 200 },
    // What metal is worth, and the coins it takes.
    { path: '/api/v1/value?weight=1', kind: 'rest', get: 200 },
    { path: '/api/v1/items', kind: 'rest', get: 200 },
    // Without the bearer token the cron route answers 401 by contract.
    { path: '/api/cron/sample', kind: 'rest', get: 401 },
    { path: '/api/openapi.json', kind: 'document', get: 200 },
    { path: '/llms.txt', kind: 'document', get: 200 },
    { path: '/mcp', kind: 'mcp', get: 405 },
    { path: '/widgets/price?currency=EUR', kind: 'page', get: 200 },
    { path: '/docs', kind: 'page', get: 200 },
    { path: '/', kind: 'page', get: 200 },
    { path: '/embed.js', kind: 'embed', get: 200 },
    { path: manifest.price, kind: 'static', get: 200 },
    { path: nextStatic, kind: 'static', get: 200 },
    { path: '/api/v2/spot', kind: 'unknown-api', get: 404 },
    { path: '/api/v1/nope', kind: 'unknown-api', get: 404 },
    { path: '/api/v1/spot.csv', kind: 'unknown-api', get: 404 },
    { path: '/api/foo', kind: 'unknown-api', get: 404 },
  );
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

function expectJson(res: RawResponse): any {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(res.body);
}

/** The documented answer to `method` on a path of `kind`. */
function check(kind: Kind, getStatus: number, method: string, res: RawResponse): void {
  const read = method === 'GET' || method === 'HEAD';
  expect(res.status).toBeLessThan(500);
  if (read) {
    expect(res.status).toBe(getStatus);
    if (method === 'HEAD') expect(res.body).toBe('');
    else expect(res.body.length).toBeGreaterThan(0);
  }
  switch (kind) {
    case 'rest':
    case 'document':
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      if (method === 'OPTIONS') {
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
        expect(res.headers['access-control-allow-headers']).toBe('x-custom');
      } else if (!read) {
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
        expect(res.headers['cache-control']).toBe('no-store');
        const body = expectJson(res);
        if (kind === 'rest') {
          expect(body).toEqual({ error: 'Method not allowed', data_state: body.data_state, updated_at: body.updated_at });
          DataState.parse(body.data_state);
          expect(Date.parse(body.updated_at)).not.toBeNaN();
        } else {
          expect(body).toEqual({ error: 'Method not allowed' });
        }
      }
      return;
    case 'mcp':
      expect(res.headers['access-control-allow-origin']).toBe('*');
      if (method === 'OPTIONS') {
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      } else if (method === 'POST') {
        // No body and no Accept: the protocol layer's own refusal.
        expect(res.status).toBe(406);
      } else {
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('POST, OPTIONS');
        if (method !== 'HEAD') expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      }
      return;
    case 'page':
    case 'static':
    case 'embed': {
      const allow = kind === 'embed' ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
      if (read) return;
      if (kind === 'embed' && method === 'OPTIONS') {
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-methods']).toBe(allow);
        return;
      }
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(expectJson(res)).toEqual({ error: 'Method not allowed' });
      if (kind === 'embed') expect(res.headers['access-control-allow-origin']).toBe('*');
      return;
    }
    case 'unknown-api': {
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      if (method === 'HEAD') return;
      const body = expectJson(res);
      expect(body.error).toMatch(/not found/i);
      DataState.parse(body.data_state);
    }
  }
}

describe('methods: every method on every kind of path', () => {
  for (const method of METHODS) {
    it(`${method}`, async () => {
      for (const { path: target, kind, get } of paths) {
        const res = await rawRequest(app.url, { method, target, headers: { 'Access-Control-Request-Headers': 'x-custom' } });
        try {
          check(kind, get, method, res);
        } catch (err) {
          throw new Error(`${method} ${target}: ${(err as Error).message}\n${res.status} ${JSON.stringify(res.headers)}\n${res.body.slice(0, 300)}`);
        }
      }
    });
  }

  it('CONNECT to an authority, as proxies are asked, is refused like any other method', async () => {
    const res = await rawRequest(app.url, { method: 'CONNECT', target: 'evil.example:443' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('the server-side marker cannot be sent by a client', async () => {
    const res = await rawRequest(app.url, { method: 'GET', target: '/api/v1/reserves', headers: { 'X-Refused-Method': 'TRACE' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).countries.length).toBeGreaterThan(0);
  });

  it('an absolute-form target is served by its path, never redirected to the named host', async () => {
    const res = await rawRequest(app.url, { method: 'GET', target: 'http://evil.example/api/v1/spot?compact=1' });
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain('evil.example');
    const trace = await rawRequest(app.url, { method: 'TRACE', target: 'http://evil.example/api/v1/spot' });
    expect(trace.status).toBe(405);
    expect(JSON.parse(trace.body).data_state).toBeDefined();
  });

  it('a WebSocket upgrade request gets an ordinary answer', async () => {
    const res = await rawRequest(app.url, { method: 'GET', target: '/api/v1/reserves', headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).countries.length).toBeGreaterThan(0);
  });
});

describe('methods: bodies nobody reads are never read', () => {
  // Headers announce 50 MB; only a few bytes follow. An answer means the server did not wait for the rest.
  const big = { 'Content-Length': String(50 * 1024 * 1024), 'Content-Type': 'application/octet-stream' };

  for (const [method, target, status] of [
    ['POST', '/api/v1/spot', 405],
    ['PUT', '/llms.txt', 405],
    ['POST', '/widgets/price', 405],
    ['PROPFIND', '/docs', 405],
    ['DELETE', '/embed.js', 405],
    ['GET', '/api/v1/reserves', 200],
    ['POST', '/api/v2/spot', 404],
  ] as const) {
    it(`${method} ${target} with 50 MB announced: ${status} at once, then the connection closes`, async () => {
      const res = await rawRequest(app.url, { method, target, headers: big, body: 'abc', timeoutMs: 5000, waitForClose: 2000 });
      expect(res.status).toBe(status);
      expect(res.closed).toBe(true);
    });
  }

  it('Expect: 100-continue is not answered with Continue where the body is not wanted', async () => {
    const res = await rawRequest(app.url, { method: 'PUT', target: '/api/v1/spot', headers: { ...big, Expect: '100-continue' }, timeoutMs: 5000 });
    expect(res.status).toBe(405);
    expect(res.interim).toEqual([]);
  });

  it('an oversized /mcp body is 413 before it is read', async () => {
    const res = await rawRequest(app.url, {
      method: 'POST',
      target: '/mcp',
      headers: { ...big, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
      timeoutMs: 5000,
      waitForClose: 2000,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect(res.closed).toBe(true);
  });
});

describe('uploads abandoned mid-body', () => {
  // 100,000 bytes announced, 17 sent, then the connection closes. Only POST /mcp reads a body.
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': '100000' };
  const body = '{"jsonrpc":"2.0",';
  /** What the app prints for a failure: Next's error mark, a stack frame, an error's own name, our route's failure lines. */
  const FAILURE = /⨯|^\s+at .+:\d+:\d+\)?$|\b\w*Error: |\[mcp\] (request|tool) failed/m;

  it('POST /mcp: logged as an aborted request, never a failure, and the server serves on', async () => {
    const from = app.output.length;
    await abandonedUpload(app.url, { method: 'POST', target: '/mcp', headers, body, holdMs: 500 });
    await expect.poll(() => app.output.slice(from)).toMatch(/\[mcp\] request aborted: the client closed the connection after \d+ of 100000 bytes/);
    // Time for anything else the abort makes the server print.
    await sleep(1000);
    expect(app.output.slice(from)).not.toMatch(FAILURE);
    expect((await app.get('/api/v1/reserves')).status).toBe(200);
  });

  for (const [method, target] of [
    ['GET', '/api/v1/reserves'],
    ['POST', '/api/v1/spot'],
    ['PUT', '/mcp'],
  ] as const) {
    it(`${method} ${target}: answered without reading; nothing logged as a failure`, async () => {
      const from = app.output.length;
      await abandonedUpload(app.url, { method, target, headers, body, holdMs: 500 });
      await sleep(1000);
      expect(app.output.slice(from)).not.toMatch(FAILURE);
      expect((await app.get('/api/v1/reserves')).status).toBe(200);
    });
  }
});

describe('unknown paths', () => {
  it('under /api/: JSON 404 with CORS; elsewhere the site 404 page', async () => {
    for (const target of ['/api/v2/spot', '/api/v1/nope', '/api/foo', '/api/v1/spot/extra', '/api']) {
      const res = await app.get(target);
      expect(res.status, target).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), target).toBe('*');
      expect(res.headers.get('content-type'), target).toBe('application/json; charset=utf-8');
      const body = await res.json();
      expect(body.error, target).toMatch(/not found/i);
      expect(body.updated_at, target).toBeTruthy();
    }
    const page = await app.get('/nope');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
