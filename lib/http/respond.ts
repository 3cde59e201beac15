import { toCsv, type Table } from './csv';
import type { DataState } from '../schemas/common';
import { isUnavailable, type Unavailable } from '../sources/unavailable';
import { cacheHeaders, NO_STORE, type CacheRoute } from './cache';
import { etagOf, newestDataTime, notModified } from './conditional.mjs';
import { linkVary } from './public-origin.mjs';

// JSON responses with the headers every REST response carries: open CORS, nosniff, Cache-Control. Compression is
// negotiated for every response by the server in front of Next (server.mjs). A cacheable 200 also carries its
// validators (ETag; Last-Modified, the newest data time it shows, when it is data), and a request that holds the same answer gets
// 304 with the same headers and no body (lib/http/conditional.mjs).

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Max-Age': '86400',
  // Lets a browser read the freshness of a CSV answer, and revalidate.
  'Access-Control-Expose-Headers': 'X-Data-State, X-Updated-At, X-Series, ETag, Last-Modified',
} as const;

export interface SendOptions {
  status?: number;
  /** The route whose cache lifetime a 200 takes (lib/http/cache.ts); without one, and for errors, no-store. */
  cache?: CacheRoute | 'no-store';
  headers?: Record<string, string>;
  contentType?: string;
  /** The body holds links built from the public origin (adds `Vary` when request headers can change them). */
  links?: boolean;
  /**
   * The newest data time the body shows (ms; `newestDataTime` of the answer): a 200 carries it as Last-Modified
   * beside its ETag. Undefined or null: no Last-Modified (not data, or no real value held).
   */
  dataTime?: number | null;
  /**
   * The body's ETag (`etagOf` of this very body) when the caller already holds it: a large answer that changes
   * only with its data (a held series) is then not hashed on every request (lib/http/series.ts).
   */
  etag?: string;
}

/**
 * A body given as encoded parts, sent as they are: an answer most of whose bytes are the same for many answers (a
 * held series, lib/http/series.ts) is then neither joined nor encoded again per request, which for a string body
 * the framework does on every answer (measured in bench/history.ts). Either way the answer goes out chunked.
 */
export type BodyParts = readonly Uint8Array[];

export function send(req: Request, body: string | BodyParts, opts: SendOptions = {}): Response {
  const status = opts.status ?? 200;
  const headers = new Headers({
    ...CORS_HEADERS,
    'Content-Type': opts.contentType ?? 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    ...(status < 400 && opts.cache && opts.cache !== 'no-store' ? cacheHeaders(opts.cache) : NO_STORE),
    ...opts.headers,
  });
  const vary = opts.links ? linkVary() : null;
  if (vary) headers.append('Vary', vary);
  const cacheable = status === 200 && opts.cache && opts.cache !== 'no-store';
  if (cacheable && validate(req, body, headers, opts.dataTime ?? null, opts.etag)) return new Response(null, { status: 304, headers });
  const sent = req.method === 'HEAD' ? null : typeof body === 'string' ? body : partsStream(body);
  return new Response(sent, { status, headers });
}

/** The parts one after the other, each handed on as it is (never copied, never transferred: they are reused). */
function partsStream(parts: BodyParts): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < parts.length) controller.enqueue(parts[next++]);
      else controller.close();
    },
  });
}

/** Sets the validators of a cacheable 200 (Last-Modified from `dataTime`); true when the request already holds this answer. */
export function validate(req: Request, body: string | BodyParts, headers: Headers, dataTime: number | null, known?: string): boolean {
  const etag = known ?? etagOf(typeof body === 'string' ? body : Buffer.concat(body));
  headers.set('ETag', etag);
  const modified = dataTime;
  if (modified !== null) headers.set('Last-Modified', new Date(modified).toUTCString());
  return notModified((name) => req.headers.get(name), etag, modified);
}

export function sendJson(req: Request, value: unknown, opts: SendOptions = {}): Response {
  return send(req, JSON.stringify(value), opts);
}

/** A core answer: the data (200, cacheable; `json` serializes it when the body has a faster way) or, when nothing real is held, the 503 body (never cached). */
export function sendResult<B extends object>(
  req: Request,
  result: B | Unavailable,
  opts: SendOptions & { json?: (body: B) => string | BodyParts } = {},
): Response {
  if (isUnavailable(result)) return sendJson(req, result, { status: 503 });
  return send(req, opts.json ? opts.json(result) : JSON.stringify(result), { dataTime: newestDataTime(result), ...opts });
}

/** A series answer as JSON, or as CSV when `csv` is given: the freshness then rides in headers. Errors stay JSON. */
export function sendSeries<B extends { data_state: DataState; updated_at: string }>(
  req: Request,
  result: B | Unavailable,
  opts: SendOptions & { csv?: Table<B> },
): Response {
  if (isUnavailable(result) || !opts.csv) return sendResult(req, result, opts);
  return send(req, toCsv(opts.csv, result), {
    dataTime: newestDataTime(result),
    ...opts,
    contentType: 'text/csv; charset=utf-8',
    headers: { ...opts.headers, 'X-Data-State': result.data_state.status, 'X-Updated-At': result.updated_at },
  });
}
