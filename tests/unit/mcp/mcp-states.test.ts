import { describe, expect, it } from 'vitest';
import { TOOLS as REGISTERED } from '@/lib/mcp/server';
import { sleep } from '../../support/expect';
import { fixture, type FakeUpstream } from '../../support/fake-upstream';
import { inProcessScenarios } from '../../support/in-process';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { mcpClient } from '../../support/mcp';
import { realChartHandler } from '../../support/yahoo';

// The MCP tools' data states through the /mcp route handler in process: a 2025-11-25 SDK client whose fetch is the
// instance's (Request in, Response out), each scenario with its own fake upstream, store folder and process state
// (tests/support/in-process.ts). What only the built app shows (both protocol eras over real HTTP, CORS preflight, the
// method rules, the rate limit across client addresses) is in tests/integration/mcp/mcp.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const scenario = inProcessScenarios();

describe('mcp: data states are ordinary results', () => {
  it('stale: the last real price, labelled stale with its age', async () => {
    const app = await scenario((f) => f.set('quotes', { mode: 'refuse' }), { CACHE_TTL_S: '1' });
    const client = await mcpClient(app);
    await client.callTool({ name: 'get_gold_price', arguments: {} });
    app.fake.set('gold', { mode: 'refuse' });
    await sleep(1200);
    const result: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data_state.status).toBe('stale');
    expect(result.structuredContent.spot_usd_oz).toBe(gold.price);
    expect(result.content[0].text).toMatch(/STALE/);
    expect(result.content[0].text).toContain(`${result.structuredContent.data_state.age_seconds} s old`);
  });

  it('unavailable: says so, gives no number, raises no error', async () => {
    const app = await scenario((f) => f.set('gold', { mode: 'status', status: 500 }).set('quotes', { mode: 'status', status: 500 }));
    const client = await mcpClient(app);
    const result: any = await client.callTool({ name: 'get_gold_price', arguments: { currency: 'EUR' } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data_state.status).toBe('unavailable');
    expect(result.structuredContent.xau).toBeUndefined();
    expect(result.content[0].text).toMatch(/unavailable/i);
    expect(result.content[0].text).not.toMatch(/\d{3,}/);
  });
});

describe('mcp: every tool through an outage', () => {
  const TOOLS: [string, Record<string, unknown>][] = [
    ['get_gold_price', {}],
    ['get_gold_history', { range: '1m' }],
    ['get_gold_intraday', { hours: 1 }],
    ['get_central_bank_reserves', { country: 'fra' }],
    ['compare_gold_to_asset', { symbol: 'sp500', range: '6m' }],
    ['get_metal_value', { weight: 10, karat: '22' }],
  ];
  /** The structured result checked against the tool's own output schema, as a client that validates would. */
  const expectValid = (name: string, result: unknown) => {
    const checked = REGISTERED.find((t) => t.name === name)!.output.safeParse(result);
    expect(checked.success, `${name}: ${checked.error?.message}`).toBe(true);
  };
  const down = (f: FakeUpstream) => {
    for (const r of ['gold', 'silver', 'quotes', 'fx', 'crypto', 'chart', 'reserves'] as const) f.set(r, { mode: 'refuse' });
  };

  it('never seen: an ordinary result saying unavailable, no number; reserves fall back to the snapshot', async () => {
    const app = await scenario(down);
    const client = await mcpClient(app);
    for (const [name, args] of TOOLS) {
      const r: any = await client.callTool({ name, arguments: args });
      expect(r.isError, name).toBeFalsy();
      expectValid(name, r.structuredContent);
      if (name === 'get_central_bank_reserves') {
        expect(r.structuredContent.data_state.source).toBe('snapshot');
        expect(r.content[0].text).toMatch(/snapshot/);
        continue;
      }
      expect(r.structuredContent.data_state.status, name).toBe('unavailable');
      expect(r.content[0].text, name).toMatch(/unavailable/i);
    }
    await client.close();
  });

  it('after real data: each result carries the last real values, labelled stale with their age', async () => {
    // One gold source, so the stale price is the one seen before. The intraday series gets its point from the cron
    // route (a server's own sampler is the built app's, tests/integration/series/intraday.test.ts), which samples
    // only while the market is open: the instance's calendar runs on a trading day.
    const SECRET = 'mcp-states-cron';
    const app = await scenario(
      (f) => {
        f.onChart(realChartHandler());
        f.set('quotes', { mode: 'refuse' });
      },
      { CACHE_TTL_S: '1', SAMPLE_INTERVAL_S: '1', CRON_SECRET: SECRET, ...marketClockAt(OPEN_DAY) },
    );
    const client = await mcpClient(app);
    // A sample just before the intraday tool is asked, as a sampler running every second would have taken.
    const sample = async () => {
      const r = await app.json('/api/cron/sample', { headers: { authorization: `Bearer ${SECRET}` } });
      expect(r.body.samples.xau).toMatch(/^(recorded|bucket already sampled)$/);
      expect((await app.json('/api/v1/intraday?hours=1')).body.count).toBeGreaterThanOrEqual(1);
    };
    const before: Record<string, any> = {};
    for (const [name, args] of TOOLS) {
      if (name === 'get_gold_intraday') await sample();
      before[name] = await client.callTool({ name, arguments: args });
      // The futures bars end 2026-04-16, seven months before this market clock: stale from the start (decisions §29).
      expect(before[name].structuredContent.data_state.status, name).toBe(name === 'get_gold_history' ? 'stale' : 'fresh');
      expectValid(name, before[name].structuredContent);
    }
    down(app.fake);
    await sleep(4000);
    for (const [name, args] of TOOLS) {
      const r: any = await client.callTool({ name, arguments: args });
      expect(r.isError, name).toBeFalsy();
      expectValid(name, r.structuredContent);
      if (name === 'get_central_bank_reserves') continue; // monthly data cached 24 h: still fresh
      expect(r.structuredContent.data_state.status, name).toBe('stale');
      expect(r.content[0].text, name).toMatch(/STALE: last real value as of .*, \d+ s old/);
    }
    const price: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    expect(price.structuredContent.spot_usd_oz).toBe(before.get_gold_price.structuredContent.spot_usd_oz);
    await client.close();
  });
});

describe('mcp: get_metal_value through the SDK client', () => {
  it('answers what REST answers, the figure and what it is not first in words; a bad argument is an isError naming the valid values', async () => {
    const app = await scenario();
    const client = await mcpClient(app);
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === 'get_metal_value')!;
    expect(listed.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(listed.description).toMatch(/not what a dealer or jeweller charges or pays/);
    for (const [args, query] of [
      [{ item: 'krugerrand', currency: 'ZAR', quote: 76000 }, 'item=krugerrand&currency=ZAR&quote=76000'],
      [{ weight: 12, karat: '14k', currency: 'EUR' }, 'weight=12&karat=14k&currency=EUR'],
      [{ metal: 'silver', weight: 1, unit: 'kg', fineness: 925 }, 'metal=silver&weight=1&unit=kg&fineness=925'],
      [{ item: 'us-90-dime', qty: 10 }, 'item=us-90-dime&qty=10'],
    ] as const) {
      const [r, rest]: any[] = await Promise.all([client.callTool({ name: 'get_metal_value', arguments: args }), app.json(`/api/v1/value?${query}`)]);
      expect(r.isError, query).toBeFalsy();
      expect(rest.status, query).toBe(200);
      const { updated_at: _a, data_state: s1, ...tool } = r.structuredContent;
      const { updated_at: _b, data_state: s2, ...body } = rest.body;
      expect(tool, query).toEqual(body);
      expect(s1.status, query).toBe(s2.status);
      const text: string = r.content[0].text;
      expect(text, query).toMatch(/^Metal value: /);
      expect(text, query).toContain(r.structuredContent.melt_value.toLocaleString('en-US', { maximumFractionDigits: 2 }));
      expect(text, query).toContain(r.structuredContent.currency);
      expect(text, query).toContain(`fresh, as of ${r.structuredContent.data_state.as_of}`);
      expect(text, query).toContain('not a dealer’s or jeweller’s price');
      expect(text, query).not.toMatch(/\bprice of (the|this|your) (coin|item|chain)/i);
      expect(JSON.parse(r.content[1].text)).toEqual(r.structuredContent);
    }
    const quoted: any = await client.callTool({ name: 'get_metal_value', arguments: { item: 'sovereign', currency: 'EUR', quote: 1 } });
    expect(quoted.content[0].text).toMatch(/ below the metal’s value\./);
    for (const [args, text] of [
      [{}, /^weight or item is required\. Valid values: weight .* or item /],
      [{ weight: 0 }, /^Invalid weight: 0\. Valid values: a number above 0/],
      [{ weight: 1, item: 'sovereign' }, /^weight and item both say what is valued/],
      [{ item: 'doubloon' }, /^Unknown item: doubloon\. Valid values: krugerrand, /],
      [{ item: 'sovereign', qty: 0 }, /^Invalid qty: 0\. Valid values: a whole number from 1 to 1000000/],
      [{ weight: 1, metal: 'platinum', karat: '18' }, /^Invalid karat with metal platinum/],
      [{ weight: 1, fineness: 1001 }, /^Invalid fineness: 1001\. Valid values: a fraction above 0 up to 1 \(0\.925\) or parts per thousand/],
      [{ weight: 1, unit: 'stone' }, /^Unsupported unit: stone\. Valid values: oz, gram, .*, grain/],
      [{ weight: 1, currency: 'XYZ' }, /^Unsupported currency: XYZ\. Valid values: .*\bEUR\b/],
    ] as const) {
      const r: any = await client.callTool({ name: 'get_metal_value', arguments: args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.content[0].text, JSON.stringify(args)).toMatch(text);
    }
    await client.close();
  });
});
