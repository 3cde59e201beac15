import { linkVary } from './public-origin.mjs';

// JSON responses with the headers every REST response carries (decisions §8). Compression is
// negotiated for every response by the server in front of Next (server.mjs).

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Max-Age': '86400',
} as const;

export interface SendOptions {
  status?: number;
  /** Cache-Control value; errors default to no-store. */
  cache?: string;
  headers?: Record<string, string>;
  contentType?: string;
  /** The body holds links built from the public origin (adds `Vary` when request headers can change them). */
  links?: boolean;
}

export function send(req: Request, body: string, opts: SendOptions = {}): Response {
  const status = opts.status ?? 200;
  const headers = new Headers({
    ...CORS_HEADERS,
    'Content-Type': opts.contentType ?? 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': opts.cache ?? (status >= 400 ? 'no-store' : 'public, max-age=30'),
    ...opts.headers,
  });
  const vary = opts.links ? linkVary() : null;
  if (vary) headers.append('Vary', vary);
  return new Response(req.method === 'HEAD' ? null : body, { status, headers });
}

export function sendJson(req: Request, value: unknown, opts: SendOptions = {}): Response {
  return send(req, JSON.stringify(value), opts);
}
