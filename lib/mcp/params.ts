import { specTypeSchemas } from '@modelcontextprotocol/server';
import { TOOLS } from './server';

// Requests whose `params` are malformed are answered here with JSON-RPC -32602 and one short
// sentence. Left to the SDK (2.4), a malformed `initialize`, `tools/list` or `ping` comes back as
// -32603 carrying zod's raw output (its Protocol.setRequestHandler throws a plain Error with the
// validation message, which the dispatcher answers as an internal error), and a malformed
// `tools/call` as -32602 with the same dump. Each request of a method this server serves is checked
// against the SDK's own schema of that request, so what passes here is exactly what the SDK accepts.
// A tool name that is not one of ours is -32602 too, naming the tools. Any other method goes to the
// SDK, which answers -32601. Bad argument values inside a well-formed call go to the tools, which
// answer with an `isError` result naming the valid values.

export type JsonRpcRefusal = { jsonrpc: '2.0'; id: string | number; error: { code: -32602; message: string } };

export interface Screened {
  /** Answers for the malformed requests, in their order. */
  refused: JsonRpcRefusal[];
  /** What is left for the SDK: the body itself, or the batch without the refused requests (empty when all were). */
  rest: unknown;
}

type Era = 'legacy' | 'modern';
type PathSegment = PropertyKey | { readonly key: PropertyKey };
/** What is read of the SDK's schema of a request: its synchronous Standard Schema check. */
type Schema = {
  readonly '~standard': { validate: (value: unknown) => { readonly issues?: ReadonlyArray<{ readonly path?: ReadonlyArray<PathSegment> }> } };
};

/** The MCP Apps views' methods (lib/mcp/views.ts), the same in both eras. */
const RESOURCES: Record<string, Schema> = {
  'resources/list': specTypeSchemas.ListResourcesRequest,
  'resources/templates/list': specTypeSchemas.ListResourceTemplatesRequest,
  'resources/read': specTypeSchemas.ReadResourceRequest,
};

/**
 * The methods this server answers in each protocol era, each with the SDK's schema of its request.
 * A method of the other era is the SDK's to refuse (-32601; on 2026-07-28 with HTTP 404).
 */
const SCHEMAS: Record<Era, Record<string, Schema>> = {
  legacy: {
    initialize: specTypeSchemas.InitializeRequest,
    ping: specTypeSchemas.PingRequest,
    'tools/list': specTypeSchemas.ListToolsRequest,
    'tools/call': specTypeSchemas.CallToolRequest,
    ...RESOURCES,
  },
  modern: {
    'server/discover': specTypeSchemas.DiscoverRequest,
    'tools/list': specTypeSchemas.ListToolsRequest,
    'tools/call': specTypeSchemas.CallToolRequest,
    'subscriptions/listen': specTypeSchemas.SubscriptionsListenRequest,
    ...RESOURCES,
  },
};

const TOOL_NAMES = TOOLS.map((t) => t.name).join(', ');
/** Problems named in one refusal, at most. */
const MAX_NAMED = 3;

/**
 * Splits a parsed request body (one message or a batch) into refused requests and the rest. `era`:
 * `modern` for a 2026-07-28 request (the SDK's `isLegacyRequest` is false), else `legacy`.
 */
export function screenParams(body: unknown, era: Era): Screened {
  if (!Array.isArray(body)) {
    const refusal = refuse(body, era);
    return refusal ? { refused: [refusal], rest: [] } : { refused: [], rest: body };
  }
  const refused: JsonRpcRefusal[] = [];
  const rest = body.filter((message) => {
    const refusal = refuse(message, era);
    if (refusal) refused.push(refusal);
    return !refusal;
  });
  return { refused, rest: refused.length ? rest : body };
}

function refuse(message: unknown, era: Era): JsonRpcRefusal | null {
  // Only well-formed requests to a method we serve are ours to judge; anything else is the SDK's.
  if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return null;
  // Params that are not an object carry no `_meta` envelope: such a request is judged as a 2025 one.
  const served = isObject(message.params) ? SCHEMAS[era] : SCHEMAS.legacy;
  if (!Object.hasOwn(served, message.method)) return null;
  const { id, method } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return null;
  const fail = (text: string): JsonRpcRefusal => ({ jsonrpc: '2.0', id, error: { code: -32602, message: text } });
  const checked = served[method]['~standard'].validate(message);
  if (checked.issues?.length) {
    const problems = [...new Set(checked.issues.map((issue) => problem(message, issue.path ?? [])))];
    const named = problems.slice(0, MAX_NAMED).join(', ') + (problems.length > MAX_NAMED ? ', …' : '');
    const tools = method === 'tools/call' && problems.some((p) => p.startsWith('params.name ')) ? `. Valid values: ${TOOL_NAMES}` : '';
    return fail(`Invalid params for ${method}: ${named}${tools}`);
  }
  const name = (message.params as { name?: unknown } | undefined)?.name;
  if (method === 'tools/call' && typeof name === 'string' && !TOOLS.some((t) => t.name === name)) {
    return fail(`Unknown tool: ${name.slice(0, 100)}. Valid values: ${TOOL_NAMES}`);
  }
  return null;
}

/** "params.protocolVersion is required", "params.arguments must be an object", or "params.cursor is not valid". */
function problem(message: Record<string, unknown>, path: readonly PathSegment[]): string {
  const keys = path.map((p) => String(typeof p === 'object' ? p.key : p));
  let value: unknown = message;
  for (const k of keys) value = isObject(value) ? value[k] : undefined;
  const where = keys.join('.') || 'the request';
  if (value === undefined) return `${where} is required`;
  const expected = EXPECTED[where];
  return expected ? `${where} must be ${expected}` : `${where} is not valid`;
}

/** What the fields clients get wrong most often must be, in words. */
const EXPECTED: Record<string, string> = {
  params: 'an object',
  'params.protocolVersion': 'a string such as "2025-11-25"',
  'params.capabilities': 'an object',
  'params.clientInfo': 'an object with name and version strings',
  'params.clientInfo.name': 'a string',
  'params.clientInfo.version': 'a string',
  'params.name': 'the name of a tool (a string)',
  'params.arguments': "an object of the tool's arguments",
  'params.cursor': 'a string',
  'params.uri': 'a resource URI (a string such as "ui://gold/price")',
  'params._meta': 'an object',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
