import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import chartExample from '@/lib/data/examples/chart.json';
import historyExample from '@/lib/data/examples/history.json';
import intradayExample from '@/lib/data/examples/intraday.json';
import reservesExample from '@/lib/data/examples/reserves.json';
import spotExample from '@/lib/data/examples/spot.json';
import { createGoldServer, TOOLS } from '@/lib/mcp/server';
import { NOTHING, unavailable } from '@/lib/unavailable';

// The tools as clients see them (through the SDK's own client over an in-memory transport), and
// the output schemas checked against real recorded REST bodies.

let client: Client;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
beforeAll(async () => {
  const server = createGoldServer({ origin: 'http://t' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  tools = (await client.listTools()).tools;
});
afterAll(() => client.close());

/** The JSON Schema constructs common MCP clients reject (several accept only a plain object root with inline definitions). */
function clientProblems(schema: unknown, where = '$'): string[] {
  const out: string[] = [];
  const root = schema as Record<string, unknown>;
  if (where === '$') {
    if (root.type !== 'object') out.push(`${where}: root type is ${String(root.type)}, not object`);
    for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'if']) if (k in root) out.push(`${where}: top-level ${k}`);
  }
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}[${i}]`));
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' || k === '$defs' || k === 'definitions') out.push(`${at}: ${k}`);
      walk(v, `${at}.${k}`);
    }
  };
  walk(schema, where);
  return out;
}

describe('tools as clients see them', () => {
  it('declares every behaviour hint, a title and a description naming units and freshness', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      expect(t.title, t.name).toBeTruthy();
      expect(t.annotations?.title, t.name).toBe(t.title);
      expect(t.description, t.name).toMatch(/USD|tonnes/);
      expect(t.description, t.name).toMatch(/fresh|stale|data_state|Updated daily|fails/);
    }
  });

  it('every input and output schema uses only what common clients accept', () => {
    for (const t of tools) {
      expect(clientProblems(t.inputSchema), `${t.name} input`).toEqual([]);
      expect(clientProblems(t.outputSchema), `${t.name} output`).toEqual([]);
    }
  });

  it('the compatibility check itself catches the constructs it looks for', () => {
    expect(clientProblems({ anyOf: [{ type: 'object' }] })).toHaveLength(2);
    expect(clientProblems({ type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: {} } })).toHaveLength(2);
  });

  it('advertises no tool-list change notifications: a stateless endpoint cannot send them', () => {
    expect(client.getServerCapabilities()?.tools?.listChanged ?? false).toBe(false);
  });

  it('output schemas require data_state and updated_at', () => {
    for (const t of tools) expect(t.outputSchema?.required, t.name).toEqual(expect.arrayContaining(['data_state', 'updated_at']));
  });
});

describe('output schemas check the REST body, not an all-optional copy', () => {
  const BODIES: Record<string, unknown> = {
    get_gold_price: spotExample,
    get_gold_history: historyExample,
    get_gold_intraday: intradayExample,
    get_central_bank_reserves: reservesExample,
  };
  const output = (name: string) => TOOLS.find((t) => t.name === name)!.output;

  it('accepts the recorded REST bodies and the unavailable body', () => {
    for (const [name, body] of Object.entries(BODIES)) expect(output(name).safeParse(body).success, name).toBe(true);
    const gold = { ...chartExample, change_pct: null };
    const comparison = { range: '1y', gold, asset: gold, data_state: chartExample.data_state, updated_at: chartExample.updated_at };
    expect(output('compare_gold_to_asset').safeParse(comparison).success).toBe(true);
    for (const t of TOOLS) expect(t.output.safeParse(unavailable('Nothing real is held.', NOTHING)).success, t.name).toBe(true);
  });

  it('refuses a body that lost a REST field, or carries one of the wrong type, without saying it is unavailable', () => {
    for (const [name, body] of Object.entries(BODIES)) {
      const [first] = Object.keys(body as object);
      const missing = { ...(body as object) } as Record<string, unknown>;
      delete missing[first];
      expect(output(name).safeParse(missing).success, `${name} without ${first}`).toBe(false);
    }
    expect(output('get_gold_price').safeParse({ ...spotExample, spot_usd_oz: '4000' }).success).toBe(false);
  });
});
