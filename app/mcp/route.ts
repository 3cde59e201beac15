import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { NO_STORE } from '@/lib/http/cache';
import { publicOrigin } from '@/lib/http/respond';
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
  const server = createGoldServer({ origin: publicOrigin(req) });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(req);
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries({ ...CORS, ...NO_STORE })) headers.set(k, v);
    // Closing the transport ends the stream, so the JSON body is read out first.
    const body = res.body ? await res.arrayBuffer() : null;
    return new Response(body, { status: res.status, headers });
  } catch (err) {
    console.error('[mcp] request failed', err);
    return jsonRpcError(503, -32603, 'Temporary failure, please retry shortly');
  } finally {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
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
      'Access-Control-Allow-Headers': req.headers.get('access-control-request-headers') || 'content-type, accept, mcp-protocol-version, mcp-session-id, authorization, last-event-id',
      'Access-Control-Max-Age': '86400',
    },
  });
}
