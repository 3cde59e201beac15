import { cacheHeaders, NO_STORE, type CacheRoute } from './cache';

// JSON responses with the headers every REST response carries (decisions §8). Compression is
// negotiated for every response by the server in front of Next (server.mjs).

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Max-Age': '86400',
} as const;

export interface SendOptions {
  status?: number;
  /** The route whose cache lifetime a 200 takes (lib/http/cache.ts); without one, and for errors, no-store. */
  cache?: CacheRoute | 'no-store';
  headers?: Record<string, string>;
  contentType?: string;
}

export function send(req: Request, body: string, opts: SendOptions = {}): Response {
  const status = opts.status ?? 200;
  const headers = new Headers({
    ...CORS_HEADERS,
    'Content-Type': opts.contentType ?? 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    ...(status < 400 && opts.cache && opts.cache !== 'no-store' ? cacheHeaders(opts.cache) : NO_STORE),
    ...opts.headers,
  });
  return new Response(req.method === 'HEAD' ? null : body, { status, headers });
}

export function sendJson(req: Request, value: unknown, opts: SendOptions = {}): Response {
  return send(req, JSON.stringify(value), opts);
}

/** The origin the client used (behind a proxy, the forwarded one), for absolute links. */
export function publicOrigin(req: Request): string {
  return originOf(req.headers, new URL(req.url));
}

/** The same from request headers alone (server components). */
export function originOf(headers: Headers, url?: URL): string {
  const host = headers.get('x-forwarded-host')?.split(',')[0].trim() || headers.get('host') || url?.host || 'localhost';
  const proto = headers.get('x-forwarded-proto')?.split(',')[0].trim() || url?.protocol.replace(':', '') || 'http';
  return `${proto}://${host}`;
}
