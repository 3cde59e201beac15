// Types of response-cache.mjs for the TypeScript tests and benchmark (the module itself is plain JS,
// run by node from server.mjs).
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function cacheKey(req: IncomingMessage): string;

export function responseCache(app: Handler, opts?: { enabled?: boolean; maxBytes?: number }): Handler & { bytes?: () => number };
