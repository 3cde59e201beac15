import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import chartExample from '@/lib/data/examples/chart.json';
import historyExample from '@/lib/data/examples/history.json';
import intradayExample from '@/lib/data/examples/intraday.json';
import reservesExample from '@/lib/data/examples/reserves.json';
import statusExample from '@/lib/data/examples/status.json';
import spotExample from '@/lib/data/examples/spot.json';
import valueExample from '@/lib/data/examples/value.json';
import { createGoldServer, TOOLS } from '@/lib/mcp/server';
import { NOTHING, unavailable } from '@/lib/sources/unavailable';
import { strictAjv } from '../../support/mcp';

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

  it('every input and output schema compiles in strict JSON Schema 2020-12 (no unknown keyword such as `example`)', () => {
    const ajv = strictAjv();
    for (const t of tools) {
      expect(() => ajv.compile(t.inputSchema), `${t.name} input`).not.toThrow();
      expect(() => ajv.compile(t.outputSchema!), `${t.name} output`).not.toThrow();
    }
    expect(JSON.stringify(tools)).not.toMatch(/"example"/);
    // The check refuses what it must: a keyword that is not JSON Schema's.
    expect(() => ajv.compile({ type: 'object', properties: { a: { type: 'string', example: 'x' } } })).toThrow(/unknown keyword: "example"/);
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
    get_data_status: statusExample,
    get_metal_value: valueExample,
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

describe('a bad argument is refused in one wording: the argument, the value or "required", the valid values', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['get_gold_intraday', { hours: 'abc' }, 'Invalid hours: abc. Valid values: a whole number from 1 to 48'],
    ['get_gold_intraday', { hours: null }, 'Invalid hours: null. Valid values: a whole number from 1 to 48'],
    ['get_gold_intraday', { symbol: 'btc' }, 'Invalid symbol: btc. Valid values: xau, xag'],
    ['compare_gold_to_asset', {}, 'symbol is required. Valid values: silver, btc, sp500, nasdaq, dxy, eurusd, oil, platinum, palladium'],
    ['compare_gold_to_asset', { symbol: 'sp500', range: '10y' }, 'Invalid range: 10y. Valid values: 1m, 3m, 6m, ytd, 1y, 2y, 5y'],
    ['get_gold_price', { unit: 'stone' }, 'Unsupported unit: stone. Valid values: oz, gram, kg'],
    ['get_gold_price', { currency: 5 }, 'Invalid currency: 5. Valid values: an ISO 4217 code such as USD, EUR, GBP, JPY or INR (160+ supported)'],
    ['get_central_bank_reserves', { country: 5 }, 'Invalid country: 5. Valid values: part of a country name or an ISO3 code'],
    ['get_gold_history', { date: 20240301 }, 'Invalid date: 20240301. Valid values: a date written YYYY-MM-DD'],
    ['get_gold_history', { date: '03/01/2024' }, 'Invalid date: 03/01/2024. Valid values: a date written YYYY-MM-DD'],
    ['get_metal_value', { weight: '12' }, 'Invalid weight: 12. Valid values: a number above 0, at most 1,000,000,000'],
    ['get_metal_value', { item: 'sovereign', qty: 2.5 }, 'Invalid qty: 2.5. Valid values: a whole number from 1 to 1000000'],
    ['get_metal_value', { weight: 1, fineness: 'sterling' }, 'Invalid fineness: sterling. Valid values: a fraction above 0 up to 1 (0.925)'],
  ];
  for (const [name, args, text] of cases) {
    it(`${name} ${JSON.stringify(args)}`, async () => {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(result.content[0].text.startsWith(text), result.content[0].text).toBe(true);
      expect(result.content[0].text).not.toMatch(/MCP error|Input validation error|Invalid arguments for tool/);
    });
  }

  it('two bad arguments are both named', async () => {
    const result = (await client.callTool({ name: 'get_gold_intraday', arguments: { symbol: 'x', hours: 99 } })) as { content: { text: string }[] };
    expect(result.content[0].text).toBe(
      'Invalid symbol: x. Valid values: xau, xag, xpt, xpd; Invalid hours: 99. Valid values: a whole number from 1 to 48',
    );
  });
});
