// Types of response-cache.mjs for the TypeScript tests and benchmark (the module itself is plain JS,
// run by node from server.mjs).
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function cacheKey(req: IncomingMessage): string;

/** A connect-style middleware, such as the `compression` package's. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * `app` answers in identity; `compress` is the compression layer a client's miss and every
 * pass-through go through (off, the cache returns `app` behind it).
 */
export function responseCache(
  app: Handler,
  opts?: { enabled?: boolean; maxBytes?: number; compress?: Middleware },
): Handler & { bytes?: () => number };
