import http from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import { afterEach, vi } from 'vitest';
import { responseCache, type Middleware } from '../../../server/response-cache.mjs';

// The response cache of `npm start` in front of a small app whose answers each test chooses, with the
// same compression layer as server.mjs, so every caching rule is checked by what a client sees and
// by how often the app was asked. Shared by response-cache.test.ts and response-cache-memory.test.ts.

/** What the app does for one request; `breakOff` ends the response without an answer (a render that crashed). */
export type Answer = {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  until?: Promise<unknown>;
  breakOff?: boolean;
};

/** A body large enough to be compressed (over 1 KB), different on every render. */
export const big = (label: string) => JSON.stringify({ label, at: process.hrtime.bigint().toString(), pad: 'x'.repeat(3000) });
export const SHARED = (n: number, swr = n) => ({
  'cache-control': `public, max-age=${n}`,
  'cdn-cache-control': `max-age=${n}, stale-while-revalidate=${swr}`,
});

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  vi.unstubAllEnvs();
});

/** Serves `answer(req)` behind the cache; counts what reaches the app per path. */
export async function setup(answer: (req: http.IncomingMessage) => Answer, opts: { maxBytes?: number; renderDeadlineMs?: number } = {}) {
  const renders: Record<string, number> = {};
  const app = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    renders[path] = (renders[path] ?? 0) + 1;
    const a = answer(req);
    const reply = () => {
      if (a.breakOff) {
        res.destroy();
        return;
      }
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
