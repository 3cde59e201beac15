import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS as REGISTERED } from '@/lib/mcp/server';
import { App } from './support/app';
import { FakeUpstream, fixture } from './support/fake-upstream';
import { call, rpc } from './support/mcp';

// tools/call with malformed params or bad argument values, as a confused client sends them: JSON-RPC
// -32602 with a short message for malformed params, an isError result naming the valid values for bad
// values; never -32603, never the validator's own output.

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

function expectInvalidParams(answer: any, id: number | string) {
  expect(answer).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602 } });
  const message: string = answer.error.message;
  expect(message).toMatch(/^Invalid params: /);
  expect(message.length).toBeLessThan(200);
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

describe('mcp: bad argument values are isError results naming the valid values', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['get_gold_price', { currency: 123 }, /ISO 4217 .*USD, EUR/],
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
    it(`${name} ${JSON.stringify(args)}`, async () => {
      const r = await rpc(app, call(name, args));
      expect(r.json.error).toBeUndefined();
      expect(r.json.result.isError).toBe(true);
      expect(r.json.result.content[0].text).toMatch(valid);
    });
  }

  it('an unknown tool names the tools', async () => {
    const r = await rpc(app, call('get_platinum_price', {}));
    expect(r.json.error).toBeUndefined();
    expect(r.json.result.isError).toBe(true);
    const text: string = r.json.result.content[0].text;
    expect(text).toContain('get_platinum_price');
    for (const tool of TOOLS) expect(text).toContain(tool);
  });

  it('the tools the docs name are exactly the tools served', async () => {
    const r = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(r.json.result.tools.map((t: any) => t.name).sort()).toEqual([...TOOLS].sort());
  });
});
