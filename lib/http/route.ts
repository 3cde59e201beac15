import type { DataState } from '../schemas/common';
import { NOTHING } from '../unavailable';
import { ApiError, errorBody } from './errors';
import { CORS_HEADERS, sendJson } from './respond';

// Every REST route is built here, so every route answers the same way: GET (and HEAD) through
// the handler, OPTIONS 204 with CORS, every other method 405 with `Allow`, errors as JSON that
// still carry `data_state` and `updated_at`, and no input ever producing a 500.

/** Longest query string we read; longer ones are refused before any work. */
export const MAX_QUERY_LENGTH = 2048;

export interface RestRouteOptions {
  get: (req: Request, url: URL) => Promise<Response>;
  /** The state of the route's primary data, for error bodies (must not call upstreams). */
  state: () => Promise<DataState>;
}

type Handler = (req: Request) => Promise<Response>;

export function restRoute(opts: RestRouteOptions): Record<'GET' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler> {
  const fail = async (req: Request, err: unknown): Promise<Response> => {
    const state = await opts.state().catch(() => NOTHING);
    const { status, body, headers } = errorBody(err, state);
    return sendJson(req, body, { status, headers });
  };

  const GET: Handler = async (req) => {
    try {
      const url = new URL(req.url);
      if (url.search.length > MAX_QUERY_LENGTH) throw new ApiError(414, `Query string longer than ${MAX_QUERY_LENGTH} characters`);
      return await opts.get(req, url);
    } catch (err) {
      return fail(req, err);
    }
  };

  const OPTIONS: Handler = async (req) => {
    const requested = req.headers.get('access-control-request-headers');
    const headers: Record<string, string> = { ...CORS_HEADERS, 'Cache-Control': 'public, max-age=86400' };
    if (requested) headers['Access-Control-Allow-Headers'] = requested;
    return new Response(null, { status: 204, headers });
  };

  const notAllowed: Handler = (req) =>
    fail(req, new ApiError(405, 'Method not allowed', {}, { Allow: 'GET, HEAD, OPTIONS' }));

  return { GET, OPTIONS, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
}
