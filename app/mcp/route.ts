import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { NO_STORE } from '@/lib/http/cache';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { screenToolCalls } from '@/lib/mcp/params';
import { checkRate, clientIp, MCP_LIMIT } from '@/lib/mcp/rate-limit';
import { createGoldServer } from '@/lib/mcp/server';

// POST /mcp: stateless streamable HTTP, JSON responses, a new server and transport per request.

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'mcp-protocol-version, mcp-session-id',
};
/** Larger bodies are refused with 413 before parsing; a full batch of tool calls is far smaller. */
const MAX_BODY_BYTES = 256 * 1024;

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status, headers: { ...CORS, ...NO_STORE, ...headers } });
}

export async function POST(req: Request): Promise<Response> {
  const rate = await checkRate(clientIp(req));
  if (!rate.allowed) {
    return jsonRpcError(429, -32029, `Rate limit exceeded: ${MCP_LIMIT} requests per minute per client. Retry after ${rate.retryAfter} s.`, {
      'Retry-After': String(rate.retryAfter),
    });
  }
  const text = await readBody(req);
  if (text === null) return jsonRpcError(413, -32000, `Request body larger than ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
  // Malformed tools/call params are answered here (-32602); the transport answers everything else,
  // invalid JSON included, from the same text. With every call refused it still gets the (empty) rest,
  // so its header checks (Accept, Content-Type, protocol version) come first as always.
  const parsed = parseJson(text);
  const { refused, rest } = parsed === undefined ? { refused: [], rest: undefined } : screenToolCalls(parsed);

  const server = createGoldServer({ origin: publicOrigin(req.headers, req.url) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const forwarded = new Request(req.url, { method: 'POST', headers: req.headers, body: text });
    const res = await transport.handleRequest(forwarded, parsed === undefined ? undefined : { parsedBody: rest });
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries({ ...CORS, ...NO_STORE })) headers.set(k, v);
    // Closing the transport ends the stream, so the JSON body is read out first.
    const body = res.body ? await res.arrayBuffer() : null;
    if (!refused.length || (res.status !== 200 && res.status !== 202)) return new Response(body, { status: res.status, headers });
    // The refused calls' answers join the transport's (a single refused call is answered alone).
    const answered = res.status === 200 && body ? (JSON.parse(new TextDecoder().decode(body)) as unknown) : [];
    const all = [...(Array.isArray(answered) ? answered : [answered]), ...refused];
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify(Array.isArray(parsed) ? all : all[0]), { status: 200, headers });
  } catch (err) {
    console.error('[mcp] request failed', err);
    return jsonRpcError(503, -32603, 'Temporary failure, please retry shortly');
  } finally {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

/** The body as text, or null when it is larger than MAX_BODY_BYTES (refused on Content-Length before reading). */
async function readBody(req: Request): Promise<string | null> {
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
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
        'content-type, accept, mcp-protocol-version, mcp-session-id, authorization, last-event-id',
      'Access-Control-Max-Age': '86400',
    },
  });
}
