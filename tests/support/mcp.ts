import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { App } from './app';
import type { Instance } from './in-process';

/** What an MCP client talks to: a built app over real HTTP, or an in-process instance (tests/support/in-process.ts), its route handler called directly. */
export type McpTarget = App | Instance;
const fetchOf = (target: McpTarget): typeof fetch => ('fetch' in target ? target.fetch : fetch);

/** A 2025-11-25 client (the 1.x SDK's, `initialize` first), connected to the app's /mcp (over real HTTP for a built app). */
export async function mcpClient(app: McpTarget): Promise<Client> {
  const client = new Client({ name: 'goldapi-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { fetch: fetchOf(app) }));
  return client;
}

/** A 2026-07-28 client (the 2.x SDK's, pinned to that revision: `server/discover`, never `initialize`). */
export async function mcpClient2026(app: App): Promise<Client2026> {
  const client = new Client2026({ name: 'goldapi-tests', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new Transport2026(new URL(`${app.url}/mcp`)));
  return client;
}

/** The `_meta` envelope a 2026-07-28 request carries, and the headers that go with it. */
export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
export function modern(
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
): { body: { jsonrpc: '2.0'; id: number | string; method: string; params: { _meta: Record<string, unknown> } }; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  // Mcp-Name is the tool's name, or the resource's URI.
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  else if (typeof params.uri === 'string') headers['mcp-name'] = params.uri;
  return { body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...ENVELOPE } } }, headers };
}

/** Ajv in strict mode for JSON Schema 2020-12, with the standard formats: refuses any keyword it does not know. */
export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** A raw JSON-RPC POST with the headers the transport requires (overridable). */
export async function rpc(app: McpTarget, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetchOf(app)(`${app.url}/mcp`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: the test says what it expects */
  }
  return { status: res.status, headers: res.headers, json, text };
}

export const initialize = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const call = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A REST body without the fields that legitimately differ between two reads of the same data. */
export function comparable(body: any): any {
  const strip = (v: any): any => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const out: any = {};
      for (const [k, x] of Object.entries(v)) {
        if (k === 'updated_at' || k === 'age_seconds' || (k === 'source' && typeof x === 'string' && ['upstream', 'cache'].includes(x))) continue;
        if (k === 'price_as_of') continue;
        out[k] = strip(x);
      }
      return out;
    }
    return v;
  };
  return strip(body);
}
