import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { NO_STORE } from '@/lib/http/cache';
import { clientAddress, publicOrigin } from '@/lib/http/public-origin.mjs';
import { screenParams } from '@/lib/mcp/params';
import { checkRate, countMore, mcpLimit, rateHeaders, type McpLimit, type RateDecision } from '@/lib/mcp/rate-limit';
import { createGoldServer } from '@/lib/mcp/server';
import { VIEW_DOCUMENTS } from '@/widgets/views/documents';

// POST /mcp: both protocol eras on one URL, stateless, a new server per request.
// - 2026-07-28 (a request carrying the `_meta` envelope): the SDK's own handler, `createMcpHandler`,
//   in its strict mode (`legacy: 'reject'`); it answers JSON, as no tool sends anything before its result.
// - 2024-10-07 … 2025-11-25 (everything else): the SDK's streamable HTTP transport, stateless, with
//   JSON responses. The handler's built-in 2025 serving (`legacy: 'stateless'`) answers every 2025
//   request as an SSE stream and offers no JSON mode, so the route does the split the SDK documents
//   for that case, with its `isLegacyRequest`.
// The rate limit counts each JSON-RPC message (a batch as its size) before either, refusing a client
// already over it before reading the body, and every answer to a counted POST says what is left of it; a batch from a client of 2025-06-18 or later, which
// removed batching, is an Invalid Request; malformed params are answered before either. Both serve the MCP Apps views
// (widgets/views/) with the tools.

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'mcp-protocol-version, mcp-session-id, retry-after, ratelimit, ratelimit-policy',
};
/** Larger bodies are refused with 413 before parsing; a full batch of tool calls is far smaller. */
const MAX_BODY_BYTES = 256 * 1024;

const onerror = (err: Error) => console.warn(`[mcp] ${err.message}`);

const modern = createMcpHandler(({ requestInfo }) => createGoldServer({ origin: origin(requestInfo) }, VIEW_DOCUMENTS), {
  legacy: 'reject',
  maxRequestBodySize: MAX_BODY_BYTES,
  onerror,
});

function origin(req: Request | undefined): string {
  return req ? publicOrigin(req.headers, req.url) : '';
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status, headers: { ...CORS, ...NO_STORE, ...headers } });
}

export async function POST(req: Request): Promise<Response> {
  const limit = mcpLimit(clientAddress(req.headers));
  // A client already over the limit is refused before its body is read (decisions §29): its first message is
  // counted now, the rest of a batch once the body says how many (decisions §25).
  const first = await checkRate(limit, 1);
  if (!first.allowed) return tooMany(limit, first, 'this request', { Connection: 'close' });
  const text = await readBody(req);
  const parsed = typeof text === 'string' ? parseJson(text) : undefined;
  // Every message counts; whatever is not a batch (a body refused unread, invalid JSON) is one.
  const size = Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  const rate = await countMore(limit, first, size - 1);
  if (!rate.allowed) return tooMany(limit, rate, `this batch of ${size} messages`);
  const res = await serve(req, text, parsed);
  for (const [k, v] of Object.entries(rateHeaders(limit, rate))) res.headers.set(k, v);
  return res;
}

function tooMany(limit: McpLimit, rate: RateDecision, what: string, headers: Record<string, string> = {}): Response {
  return jsonRpcError(
    429,
    -32029,
    `Rate limit exceeded: ${limit.policy.limit} messages per minute ${limit.per}, a batch counting as its size; ${rate.remaining ?? 0} left, not enough for ${what}. Retry after ${rate.reset} s.`,
    { 'Retry-After': String(rate.reset), ...rateHeaders(limit, rate), ...headers },
  );
}

/**
 * Whether a batch comes from a client that declared protocol 2025-06-18 or later, which removed batching:
 * by the `MCP-Protocol-Version` header, or by the 2026-07-28 era's `_meta` claim in any of its messages.
 */
function batchOfLaterProtocol(req: Request, parsed: unknown[]): boolean {
  const header = req.headers.get('mcp-protocol-version');
  // Protocol versions are dates, YYYY-MM-DD, so they compare as strings.
  if (header && /^\d{4}-\d{2}-\d{2}$/.test(header) && header >= BATCHING_REMOVED) return true;
  return parsed.some((m) => {
    const meta = (m as { params?: { _meta?: unknown } } | null)?.params?._meta;
    return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
  });
}

/** The protocol revision that removed JSON-RPC batching. */
const BATCHING_REMOVED = '2025-06-18';

async function serve(req: Request, text: Awaited<ReturnType<typeof readBody>>, parsed: unknown): Promise<Response> {
  if (text === TOO_LARGE) return jsonRpcError(413, -32000, `Request body larger than ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
  // Nobody is left to read the answer; what matters is that the log says what happened, not a 500.
  if (text === ABORTED) return jsonRpcError(400, -32000, 'Request body incomplete: the upload was aborted', { Connection: 'close' });
  if (Array.isArray(parsed) && batchOfLaterProtocol(req, parsed))
    return jsonRpcError(400, -32600, `Invalid Request: JSON-RPC batches were removed in protocol ${BATCHING_REMOVED}; send one message per request`);
  // Malformed params are answered here (-32602); the SDK answers everything else, invalid JSON
  // included, from the same text. With every request refused the 2025 transport still gets the
  // (empty) rest, so its header checks (Accept, Content-Type, protocol version) come first as always.
  const forwarded = new Request(req.url, { method: 'POST', headers: req.headers, body: text });

  try {
    const legacy = parsed === undefined || (await isLegacyRequest(forwarded, parsed, { maxRequestBodySize: MAX_BODY_BYTES }));
    const { refused, rest } = parsed === undefined ? { refused: [], rest: undefined } : screenParams(parsed, legacy ? 'legacy' : 'modern');
    if (!legacy && refused.length) return answered(200, new Headers(), refused, parsed);
    const res = legacy
      ? await serveLegacy(forwarded, parsed === undefined ? undefined : rest)
      : await modern.fetch(forwarded, { parsedBody: parsed });
    const headers = new Headers(res.headers);
    // The JSON body is read out before the server closes.
    const body = res.body ? await res.arrayBuffer() : null;
    if (!refused.length || (res.status !== 200 && res.status !== 202))
      return new Response(body, { status: res.status, headers: withOurHeaders(headers) });
    // The refused requests' answers join the SDK's (a single refused request is answered alone).
    const sdk = res.status === 200 && body ? (JSON.parse(new TextDecoder().decode(body)) as unknown) : [];
    return answered(200, headers, [...(Array.isArray(sdk) ? sdk : [sdk]), ...refused], parsed);
  } catch (err) {
    console.error('[mcp] request failed', err);
    return jsonRpcError(503, -32603, 'Temporary failure, please retry shortly');
  }
}

/** One 2025-era request: a fresh server on the SDK's stateless transport, JSON responses. */
async function serveLegacy(req: Request, parsedBody: unknown): Promise<Response> {
  const server = createGoldServer({ origin: origin(req) }, VIEW_DOCUMENTS);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
    // Closing the transport ends the stream, so the body is read out first.
    return new Response(res.body ? await res.arrayBuffer() : null, { status: res.status, headers: res.headers });
  } finally {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

function answered(status: number, headers: Headers, all: unknown[], parsed: unknown): Response {
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(Array.isArray(parsed) ? all : all[0]), { status, headers: withOurHeaders(headers) });
}

function withOurHeaders(headers: Headers): Headers {
  for (const [k, v] of Object.entries({ ...CORS, ...NO_STORE })) headers.set(k, v);
  return headers;
}

const TOO_LARGE = Symbol('too large');
const ABORTED = Symbol('aborted');

/**
 * The body as text; TOO_LARGE past MAX_BODY_BYTES (refused on Content-Length before reading), ABORTED
 * when the client went away mid-upload (reading a request body fails only that way).
 */
async function readBody(req: Request): Promise<string | typeof TOO_LARGE | typeof ABORTED> {
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) return TOO_LARGE;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (err) {
      const announced = req.headers.get('content-length');
      const why = err instanceof Error ? err.message : String(err);
      console.warn(`[mcp] request aborted: the client closed the connection after ${size}${announced ? ` of ${announced}` : ''} bytes (${why})`);
      return ABORTED;
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function GET(): Response {
  return jsonRpcError(405, -32000, 'Method not allowed: this endpoint is stateless and takes JSON-RPC over POST only', { Allow: 'POST, OPTIONS' });
}
export const DELETE = GET;
export const PUT = GET;
export const PATCH = GET;

export function OPTIONS(req: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers':
        req.headers.get('access-control-request-headers') ||
        'content-type, accept, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, authorization, last-event-id',
      'Access-Control-Max-Age': '86400',
    },
  });
}
