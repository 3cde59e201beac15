import { TOOLS } from './server';

// tools/call requests whose `params` are malformed (missing, no tool name, `arguments` that are not
// an object) are answered here with JSON-RPC -32602 and a short message. Left to the SDK, they come
// back as -32603 "Internal error" carrying its raw validation output. A tool name that is not one of
// ours gets the SDK's own answer, an `isError` result, but naming the tools. Bad argument values inside
// a well-formed call go to the tools, which answer with an `isError` result naming the valid values.

export type JsonRpcAnswer =
  | { jsonrpc: '2.0'; id: string | number; error: { code: -32602; message: string } }
  | { jsonrpc: '2.0'; id: string | number; result: { isError: true; content: { type: 'text'; text: string }[] } };

export interface Screened {
  /** Answers for the malformed calls, in their order. */
  refused: JsonRpcAnswer[];
  /** What is left for the transport: the body itself, or the batch without the refused calls (empty when all were). */
  rest: unknown;
}

const TOOL_NAMES = TOOLS.map((t) => t.name).join(', ');

/** Splits a parsed request body (one message or a batch) into refused calls and the rest. */
export function screenToolCalls(body: unknown): Screened {
  if (!Array.isArray(body)) {
    const refusal = refuse(body);
    return refusal ? { refused: [refusal], rest: [] } : { refused: [], rest: body };
  }
  const refused: JsonRpcAnswer[] = [];
  const rest = body.filter((message) => {
    const refusal = refuse(message);
    if (refusal) refused.push(refusal);
    return !refusal;
  });
  return { refused, rest: refused.length ? rest : body };
}

function refuse(message: unknown): JsonRpcAnswer | null {
  // Only well-formed tools/call requests are ours to judge; anything else is the transport's.
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return null;
  const { id, params } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return null;
  const fail = (message: string): JsonRpcAnswer => ({ jsonrpc: '2.0', id, error: { code: -32602, message: `Invalid params: ${message}` } });
  if (!isObject(params)) return fail('tools/call takes params with the name of a tool and its arguments');
  if (typeof params.name !== 'string') return fail(`name must be the name of a tool: ${TOOL_NAMES}`);
  if ('arguments' in params && !isObject(params.arguments)) return fail("arguments must be an object of the tool's arguments");
  if (!TOOLS.some((t) => t.name === params.name)) {
    const text = `Unknown tool: ${params.name.slice(0, 100)}. Valid values: ${TOOL_NAMES}`;
    return { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text }] } };
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
