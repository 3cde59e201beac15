import type { DataState } from '../schemas/common';
import { NOTHING } from '../sources/unavailable';
import { ApiError } from '../core/errors';
import { errorBody } from './errors';
import { CORS_HEADERS, sendJson } from './respond';

// Every REST route is built here, so every route answers the same way: GET (and HEAD) through
// the handler, OPTIONS 204 with CORS, every other method 405 with `Allow`, errors as JSON that
// still carry `data_state` and `updated_at`, and no input ever producing a 500.

/** Longest query string we read; longer ones are refused before any work. */
export const MAX_QUERY_LENGTH = 2048;

/**
 * Set by server.mjs (server/methods.mjs, which removes any value a client sends) on a request whose
 * method the route does not take: the framework cannot route TRACE, PROPFIND or unknown methods,
 * so the server hands them over as a GET carrying this header, and the route answers its own 405.
 */
export const REFUSED_METHOD_HEADER = 'x-refused-method';

export const ALLOW = 'GET, HEAD, OPTIONS';

export interface RestRouteOptions {
  get: (req: Request, url: URL) => Promise<Response>;
  /** The state of the route's primary data, for error bodies (must not call upstreams); absent on
   * documents that have none (OpenAPI, llms.txt), whose errors are `{error}` alone. */
  state?: () => Promise<DataState>;
  /** How an error of GET (or HEAD) answers when not as the JSON `{error, …}` body (`price.txt`: one line of text); a 405 stays JSON, as on every REST path. */
  errorAs?: ErrorAnswer;
}

/** An error's answer, from the error and the state of the route's primary data. */
export type ErrorAnswer = (req: Request, err: unknown, state: DataState) => Response;

type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Handler = (req: Request) => Promise<Response>;

export function restRoute(opts: RestRouteOptions): Record<Exclude<Method, 'HEAD'>, Handler> {
  const fail = errorResponder(opts.state);
  const failGet = opts.errorAs ? errorResponder(opts.state, opts.errorAs) : fail;
  const notAllowed: Handler = (req) => fail(req, new ApiError(405, 'Method not allowed', {}, { Allow: ALLOW }));

  const GET: Handler = async (req) => {
    if (req.headers.has(REFUSED_METHOD_HEADER)) return notAllowed(req);
    try {
      const url = new URL(req.url);
      if (url.search.length > MAX_QUERY_LENGTH) throw new ApiError(414, `Query string longer than ${MAX_QUERY_LENGTH} characters`);
      return await opts.get(req, url);
    } catch (err) {
      return failGet(req, err);
    }
  };

  const OPTIONS: Handler = async (req) => {
    const requested = req.headers.get('access-control-request-headers');
    const headers: Record<string, string> = { ...CORS_HEADERS, 'Cache-Control': 'public, max-age=86400' };
    if (requested) headers['Access-Control-Allow-Headers'] = requested;
    return new Response(null, { status: 204, headers });
  };

  return { GET, OPTIONS, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
}

/** Any path under /api/ that no route serves: 404 JSON with CORS, whatever the method. */
export function unknownApiRoute(state: () => Promise<DataState>): Record<Method, Handler> {
  const fail = errorResponder(state);
  const notFound: Handler = (req) => fail(req, new ApiError(404, 'Not found: see /api/openapi.json for the endpoints'));
  return { GET: notFound, HEAD: notFound, OPTIONS: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}

export function errorResponder(state?: () => Promise<DataState>, as?: ErrorAnswer) {
  return async (req: Request, err: unknown): Promise<Response> => {
    const current = state ? await state().catch(() => NOTHING) : NOTHING;
    if (as) return as(req, err, current);
    const { status, body, headers } = errorBody(err, current);
    const { data_state, updated_at, ...plain } = body;
    return sendJson(req, state ? body : plain, { status, headers });
  };
}
