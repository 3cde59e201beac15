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
