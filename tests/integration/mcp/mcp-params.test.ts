import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS as REGISTERED } from '@/lib/mcp/server';
import { App } from '../../support/app';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { call, initialize, modern, rpc } from '../../support/mcp';

// Requests with malformed params or bad argument values, as a confused client sends them, in both
// protocol eras: JSON-RPC -32602 with a short message for malformed params of any method and for an
// unknown tool, an isError result naming the valid values for bad values; never -32603, never the
// validator's own output.

const gold = fixture('goldapi-price-XAU.json');
const TOOLS = REGISTERED.map((t) => t.name);
let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: { ...fake.env(), MCP_RATE_WINDOW_S: '1' } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

const request = (id: number | string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  ...(params === undefined ? {} : { params }),
});

const MALFORMED: [string, unknown][] = [
  ['no params', undefined],
  ['params null', null],
  ['params an array', []],
  ['params a string', 'get_gold_price'],
  ['no tool name', { arguments: {} }],
  ['tool name a number', { name: 5, arguments: {} }],
  ['tool name null', { name: null }],
  ['tool name an object', { name: { tool: 'get_gold_price' } }],
  ['arguments a string', { name: 'get_gold_price', arguments: '{"currency":"EUR"}' }],
  ['arguments an array', { name: 'get_gold_price', arguments: ['EUR'] }],
  ['arguments a number', { name: 'get_gold_price', arguments: 1 }],
  ['arguments null', { name: 'get_gold_price', arguments: null }],
  ['arguments true', { name: 'get_gold_intraday', arguments: true }],
];

function expectInvalidParams(answer: any, id: number | string, method = 'tools/call') {
  expect(answer).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602 } });
  const message: string = answer.error.message;
  expect(message.startsWith(`Invalid params for ${method}: `), message).toBe(true);
  expect(message.length).toBeLessThan(240);
  // No validator output: no JSON dump, no issue codes.
  expect(message).not.toMatch(/[[{]|invalid_type|expected/);
}

describe('mcp: malformed tools/call params are -32602', () => {
  for (const [label, params] of MALFORMED) {
    it(label, async () => {
      const r = await rpc(app, request(7, params));
      expect(r.status).toBe(200);
      expectInvalidParams(r.json, 7);
    });
  }

  it('a missing or mistyped tool name names the tools', async () => {
    const r = await rpc(app, request(1, { name: 5 }));
    for (const tool of TOOLS) expect(r.json.error.message).toContain(tool);
  });

  it('inside a batch: the malformed calls are answered -32602, the others normally', async () => {
    const r = await rpc(app, [
      request('bad-1'),
      call('get_gold_price', {}, 'good'),
      request('bad-2', { name: 'get_gold_price', arguments: 'x' }),
      { jsonrpc: '2.0', id: 'list', method: 'tools/list', params: {} },
    ]);
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.json.map((x: any) => [x.id, x]));
    expect(Object.keys(byId).sort()).toEqual(['bad-1', 'bad-2', 'good', 'list']);
    expectInvalidParams(byId['bad-1'], 'bad-1');
    expectInvalidParams(byId['bad-2'], 'bad-2');
    expect(byId.good.result.structuredContent.spot_usd_oz).toBe(gold.price);
    expect(byId.list.result.tools.map((t: any) => t.name).sort()).toEqual([...TOOLS].sort());
  });

  it('a batch of only malformed calls, with a notification, answers each call', async () => {
    const r = await rpc(app, [request('a'), request('b', { name: [] }), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(r.status).toBe(200);
    expect(r.json.map((x: any) => x.id)).toEqual(['a', 'b']);
    for (const answer of r.json) expectInvalidParams(answer, answer.id);
  });

  it('other protocol errors stay the transport’s: bad JSON, not JSON-RPC, wrong Accept', async () => {
    expect((await rpc(app, '{"jsonrpc":')).json.error.code).toBe(-32700);
    expect((await rpc(app, { hello: 'world' })).status).toBe(400);
    const wrongAccept = await rpc(app, request(1), { accept: 'application/json' });
    expect(wrongAccept.status).toBe(406);
  });
});

describe('mcp: malformed params of every method are -32602, in both eras', () => {
  const LEGACY: [string, string, unknown, RegExp][] = [
    ['initialize without params', 'initialize', undefined, /params is required/],
    [
      'initialize with a numeric protocolVersion',
      'initialize',
      { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'a', version: '1' } },
      /params\.protocolVersion must be a string/,
    ],
    [
      'initialize without capabilities or clientInfo',
      'initialize',
      { protocolVersion: '2025-11-25' },
      /params\.capabilities is required, params\.clientInfo is required/,
    ],
    [
      'initialize with clientInfo lacking its version',
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a' } },
      /params\.clientInfo\.version is required/,
    ],
    ['initialize with params an array', 'initialize', ['2025-11-25'], /params must be an object/],
    ['ping with params a number', 'ping', 5, /params must be an object/],
    ['tools/list with params a string', 'tools/list', 'all', /params must be an object/],
    ['tools/list with a numeric cursor', 'tools/list', { cursor: 5 }, /params\.cursor must be a string/],
  ];
  for (const [label, method, params, problem] of LEGACY) {
    it(`2025 era: ${label}`, async () => {
      const r = await rpc(app, { jsonrpc: '2.0', id: 3, method, ...(params === undefined ? {} : { params }) });
      expect(r.status).toBe(200);
      expectInvalidParams(r.json, 3, method);
      expect(r.json.error.message).toMatch(problem);
    });
  }

  const MODERN: [string, string, Record<string, unknown>, RegExp][] = [
    ['tools/list with a numeric cursor', 'tools/list', { cursor: 5 }, /params\.cursor must be a string/],
    ['tools/call with arguments a number', 'tools/call', { name: 'get_gold_price', arguments: 5 }, /params\.arguments must be an object/],
    ['tools/call without a tool name', 'tools/call', { arguments: {} }, /params\.name is required\. Valid values: get_gold_price/],
    ['subscriptions/listen without its filter', 'subscriptions/listen', {}, /params\.notifications is required/],
  ];
  for (const [label, method, params, problem] of MODERN) {
    it(`2026-07-28: ${label}`, async () => {
      const { body, headers } = modern(method, params, 4);
      const r = await rpc(app, body, headers);
      expect(r.status).toBe(200);
      expectInvalidParams(r.json, 4, method);
      expect(r.json.error.message).toMatch(problem);
    });
  }

  it('2026-07-28: initialize and ping, 2025 methods, are unknown there (404, -32601), whatever their params', async () => {
    for (const method of ['initialize', 'ping']) {
      const { body, headers } = modern(method, { protocolVersion: 5 });
      const r = await rpc(app, body, headers);
      expect(r.status, method).toBe(404);
      expect(r.json.error.code, method).toBe(-32601);
    }
  });

  it('2026-07-28: a malformed envelope in params is -32602 with one short line', async () => {
    const { body, headers } = modern('tools/list');
    body.params._meta['io.modelcontextprotocol/protocolVersion'] = 7;
    const r = await rpc(app, body, headers);
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message.length).toBeLessThan(200);
    expect(r.json.error.message).not.toMatch(/[[{\n]/);
  });

  it('a well-formed initialize after all that still succeeds (the refusals leave nothing behind)', async () => {
    const r = await rpc(app, initialize('2025-11-25'));
    expect(r.json.result.protocolVersion).toBe('2025-11-25');
  });
});

describe('mcp: bad argument values are isError results naming the valid values', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['get_gold_price', { currency: 123 }, /^Invalid currency: 123\. Valid values: an ISO 4217 code such as USD, EUR/],
    ['get_gold_intraday', { hours: 'abc' }, /^Invalid hours: abc\. Valid values: a whole number from 1 to 48$/],
    ['compare_gold_to_asset', {}, /^symbol is required\. Valid values: silver, btc, sp500/],
    ['get_gold_price', { currency: 'XYZ' }, /Valid values: .*EUR/],
    ['get_gold_price', { unit: 'stone' }, /oz, gram, kg/],
    ['get_gold_price', { unit: 1 }, /oz, gram, kg/],
    ['get_gold_history', { range: 5 }, /1m, 3m, 6m, ytd, 1y, 2y, 5y/],
    ['get_gold_intraday', { hours: 'many' }, /1 to 48/],
    ['get_gold_intraday', { symbol: ['xau'] }, /xau, xag/],
    ['get_central_bank_reserves', { country: 5 }, /part of a country name or an ISO3 code/],
    ['compare_gold_to_asset', { symbol: null }, /silver, btc, sp500/],
  ];
  for (const [name, args, valid] of cases) {
    for (const era of ['2025', '2026-07-28'] as const) {
      it(`${era}: ${name} ${JSON.stringify(args)}`, async () => {
        const r = era === '2025' ? await rpc(app, call(name, args)) : await rpc(app, ...spread(modern('tools/call', { name, arguments: args })));
        expect(r.json.error).toBeUndefined();
        expect(r.json.result.isError).toBe(true);
        expect(r.json.result.content[0].text).toMatch(valid);
        expect(r.json.result.content[0].text).not.toMatch(/MCP error|Input validation error|Invalid arguments for tool/);
      });
    }
  }

  for (const era of ['2025', '2026-07-28'] as const) {
    it(`${era}: an unknown tool is JSON-RPC -32602 naming the tools`, async () => {
      const name = 'get_platinum_price';
      const r = era === '2025' ? await rpc(app, call(name, {}, 9)) : await rpc(app, ...spread(modern('tools/call', { name, arguments: {} }, 9)));
      expect(r.status).toBe(200);
      expect(r.json.result).toBeUndefined();
      expect(r.json).toMatchObject({ id: 9, error: { code: -32602 } });
      const text: string = r.json.error.message;
      expect(text).toMatch(/^Unknown tool: get_platinum_price\. Valid values: /);
      for (const tool of TOOLS) expect(text).toContain(tool);
    });
  }

  it('the tools the docs name are exactly the tools served', async () => {
    const r = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(r.json.result.tools.map((t: any) => t.name).sort()).toEqual([...TOOLS].sort());
  });
});

const spread = ({ body, headers }: { body: unknown; headers: Record<string, string> }) => [body, headers] as const;
