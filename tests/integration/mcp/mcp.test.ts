import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../../package.json';
import { Spot } from '@/lib/schemas/spot';
import { App } from '../../support/app';
import { sleep, waitFor } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { call, comparable, initialize, mcpClient, mcpClient2026, modern, rpc, strictAjv } from '../../support/mcp';
import { inOneRateWindow, windowStart } from '../../support/rate-window';
import { realChartHandler } from '../../support/yahoo';
import { History } from '@/lib/schemas/history';
import { Intraday } from '@/lib/schemas/intraday';
import { Reserves } from '@/lib/schemas/reserves';
import { Chart } from '@/lib/schemas/chart';
import { TOOLS as REGISTERED } from '@/lib/mcp/server';

// The MCP endpoint against the built app over real HTTP: a 2025-11-25 client and a 2026-07-28 client,
// raw JSON-RPC in both eras, the method rules, CORS and the rate limit. The tools' data states (stale, unavailable,
// every tool through an outage) run at the route handler in process (tests/unit/mcp/mcp-states.test.ts).

const gold = fixture('goldapi-price-XAU.json');
let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // A 1 s rate window keeps this file's many requests well under 120 per window; the sampler fills the intraday series
  // (it records only while the market is open: the app's calendar runs on a trading day, whatever the real time).
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(OPEN_DAY), MCP_RATE_WINDOW_S: '1', SAMPLER: 'on', SAMPLE_INTERVAL_S: '2' } });
  await waitFor(
    async () => (await app.json('/api/v1/intraday?hours=1')).body.count,
    (n) => n >= 2,
  );
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('mcp: the SDK client', () => {
  it('initializes statelessly with the app name and version', async () => {
    const client = await mcpClient(app);
    expect(client.getServerVersion()).toMatchObject({ name: 'goldapi', version: pkg.version });
    expect(client.getInstructions()).toMatch(/stale/);
    expect(client.getServerCapabilities()?.tools).toBeTruthy();
    await client.close();
    const raw = await rpc(app, initialize('2025-11-25'));
    expect(raw.headers.get('mcp-session-id')).toBeNull();
  });

  it('lists read-only tools with input and output schemas', async () => {
    const client = await mcpClient(app);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.sort()).toEqual([
      'compare_gold_to_asset',
      'get_central_bank_reserves',
      'get_data_status',
      'get_gold_history',
      'get_gold_intraday',
      'get_gold_price',
      'get_metal_value',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
    }
    await client.close();
  });

  for (const args of [{}, { currency: 'eur', unit: 'gram' }, { currency: 'JPY', unit: 'kg' }] as Record<string, string>[]) {
    it(`get_gold_price ${JSON.stringify(args)} equals the REST body`, async () => {
      const client = await mcpClient(app);
      const result: any = await client.callTool({ name: 'get_gold_price', arguments: args });
      await client.close();
      expect(result.isError).toBeFalsy();
      const query = new URLSearchParams({ ...args, compact: '1' });
      const rest = await app.json(`/api/v1/spot?${query}`);
      Spot.parse(result.structuredContent);
      expect(comparable(result.structuredContent)).toEqual(comparable(rest.body));
      // Summary first (figure, unit, currency, timestamp, state), full JSON second.
      const [summary, json] = result.content;
      expect(summary.text).toContain(rest.body.xau.currency);
      expect(summary.text).toContain(rest.body.xau.price.toLocaleString('en-US', { maximumFractionDigits: 4 }));
      expect(summary.text).toContain(rest.body.data_state.as_of);
      expect(summary.text).toMatch(/fresh/);
      expect(JSON.parse(json.text)).toEqual(result.structuredContent);
    });
  }
});

describe('mcp: every other tool equals its REST endpoint', () => {
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const client = await mcpClient(app);
    try {
      return (await client.callTool({ name, arguments: args })) as any;
    } finally {
      await client.close();
    }
  };

  it('get_gold_intraday: default and xag over 1 hour', async () => {
    for (const [args, query] of [
      [{}, ''],
      [{ symbol: 'xag', hours: 1 }, '?symbol=xag&hours=1'],
    ] as const) {
      const result = await callTool('get_gold_intraday', args);
      expect(result.isError).toBeFalsy();
      Intraday.parse(result.structuredContent);
      const rest = await app.json(`/api/v1/intraday${query}`);
      // Samples may land between the two reads: compare the shared part.
      const n = Math.min(rest.body.count, result.structuredContent.count);
      expect(result.structuredContent.points.slice(0, n)).toEqual(rest.body.points.slice(0, n));
      expect(result.structuredContent).toMatchObject({ symbol: rest.body.symbol, hours: rest.body.hours });
      expect(result.content[0].text).toMatch(/USD per troy ounce/);
      expect(JSON.parse(result.content[1].text)).toEqual(result.structuredContent);
    }
  });

  it('get_gold_history: default 1y and 3m cut the points, statistics unchanged', async () => {
    const rest = await app.json('/api/v1/history');
    const latest = rest.body.points[rest.body.points.length - 1].d;
    for (const [args, days] of [
      [{}, 365],
      [{ range: '3m' }, 91],
    ] as const) {
      const result = await callTool('get_gold_history', args);
      expect(result.isError).toBeFalsy();
      const body = result.structuredContent;
      History.parse(body);
      const from = new Date(Date.parse(latest) - days * 86_400_000).toISOString().slice(0, 10);
      expect(body.points).toEqual(rest.body.points.filter((p: { d: string }) => p.d >= from));
      expect(body.count).toBe(body.points.length);
      for (const k of ['high_52w', 'low_52w', 'ranges', 'return_ytd_pct', 'return_1y_pct', 'symbol', 'source'])
        expect(body[k], k).toEqual(rest.body[k]);
      expect(result.content[0].text).toContain(
        String(rest.body.points[rest.body.points.length - 1].c.toLocaleString('en-US', { maximumFractionDigits: 2 })),
      );
    }
    const ytd = await callTool('get_gold_history', { range: 'ytd' });
    expect(ytd.structuredContent.points[0].d >= `${latest.slice(0, 4)}-01-01`).toBe(true);
  });

  it('get_central_bank_reserves: all, by name part, by ISO3', async () => {
    const rest = await app.json('/api/v1/reserves');
    const all = await callTool('get_central_bank_reserves', {});
    Reserves.parse(all.structuredContent);
    expect(comparable(all.structuredContent)).toEqual(comparable(rest.body));
    const india = await callTool('get_central_bank_reserves', { country: 'INDIA' });
    expect(india.structuredContent.countries.map((c: { iso3: string }) => c.iso3)).toEqual(['IND']);
    expect(india.structuredContent.countries[0]).toEqual(rest.body.countries.find((c: { iso3: string }) => c.iso3 === 'IND'));
    expect(india.content[0].text).toMatch(/India \(IND\) [\d,.]+ t as of \d{4}-\d{2}/);
    const deu = await callTool('get_central_bank_reserves', { country: 'deu' });
    expect(deu.structuredContent.countries.map((c: { country: string }) => c.country)).toEqual(['Germany']);
    const none = await callTool('get_central_bank_reserves', { country: 'Atlantis' });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent.count).toBe(0);
  });

  it('compare_gold_to_asset: both series equal the chart endpoint, with their changes', async () => {
    for (const [args, chartRange, assetSymbol] of [
      [{ symbol: 'sp500' }, '1y', 'sp500'],
      [{ symbol: 'btc', range: '6m' }, '6mo', 'bitcoin'],
    ] as const) {
      const result = await callTool('compare_gold_to_asset', args);
      const gold = await app.json(`/api/v1/chart?symbol=xau&range=${chartRange}&interval=1d`);
      const asset = await app.json(`/api/v1/chart?symbol=${assetSymbol}&range=${chartRange}&interval=1d`);
      if (asset.status === 503) {
        // No recorded body for this ticker: the tool says so instead of inventing a series.
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent.data_state.status).toBe('unavailable');
        expect(result.content[0].text).toMatch(/Unavailable/);
        continue;
      }
      expect(result.isError).toBeFalsy();
      Chart.parse(result.structuredContent.gold);
      expect(comparable(result.structuredContent.gold)).toEqual(comparable({ ...gold.body, change_pct: result.structuredContent.gold.change_pct }));
      expect(comparable(result.structuredContent.asset)).toEqual(
        comparable({ ...asset.body, change_pct: result.structuredContent.asset.change_pct }),
      );
      const change = (ps: { c: number }[]) => Math.round((ps[ps.length - 1].c / ps[0].c - 1) * 10000) / 100;
      expect(result.structuredContent.gold.change_pct).toBe(change(gold.body.points));
      expect(result.structuredContent.asset.change_pct).toBe(change(asset.body.points));
    }
  });

  it('invalid arguments name the valid values', async () => {
    for (const [name, args, valid] of [
      ['get_gold_intraday', { hours: 0 }, /1 to 48/],
      ['get_gold_intraday', { hours: 49 }, /1 to 48/],
      ['get_gold_intraday', { hours: 1.5 }, /1 to 48/],
      ['get_gold_intraday', { symbol: 'btc' }, /xau, xag/],
      ['get_gold_history', { range: '7y' }, /1m, 3m, 6m, ytd, 1y, 2y, 5y, 10y, max/],
      ['compare_gold_to_asset', {}, /silver, btc, sp500/],
      ['compare_gold_to_asset', { symbol: 'gold' }, /silver, btc, sp500/],
    ] as const) {
      const r = await rpc(app, call(name, args));
      expect(r.json.result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(r.json.result.content[0].text).toMatch(valid);
    }
  });
});

describe('mcp: raw JSON-RPC', () => {
  it('parse error', async () => {
    const r = await rpc(app, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32700);
  });

  it('invalid request', async () => {
    const r = await rpc(app, { hello: 'world' });
    expect(r.status).toBe(400);
    expect([-32600, -32700]).toContain(r.json.error.code);
  });

  it('unknown method', async () => {
    const r = await rpc(app, { jsonrpc: '2.0', id: 7, method: 'prices/guess', params: {} });
    expect(r.json).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('unknown tool is JSON-RPC -32602 naming the tool', async () => {
    const r = await rpc(app, call('get_platinum_price', {}));
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message).toContain('get_platinum_price');
  });

  it('invalid arguments name the valid values', async () => {
    const badCurrency = await rpc(app, call('get_gold_price', { currency: 'XYZ' }));
    expect(badCurrency.json.result.isError).toBe(true);
    expect(badCurrency.json.result.content[0].text).toMatch(/Unsupported currency: XYZ\. Valid values: .*EUR/);
    const badUnit = await rpc(app, call('get_gold_price', { unit: 'stone' }));
    expect(badUnit.json.result.isError).toBe(true);
    expect(badUnit.json.result.content[0].text).toMatch(/oz, gram, kg/);
  });

  it('a batch answers each request', async () => {
    const r = await rpc(app, [call('get_gold_price', {}, 'a'), { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: {} }]);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json)).toBe(true);
    const byId = Object.fromEntries(r.json.map((x: any) => [x.id, x]));
    expect(byId.a.result.structuredContent.spot_usd_oz).toBe(gold.price);
    expect(byId.b.result.tools.length).toBeGreaterThan(0);
  });

  it('an oversized body is 413', async () => {
    const r = await rpc(app, call('get_gold_price', { currency: 'x'.repeat(300_000) }));
    expect(r.status).toBe(413);
  });

  for (const [asked, agreed] of [
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2024-11-05'],
    ['2024-10-07', '2024-10-07'],
    ['2099-01-01', '2025-11-25'],
    // A 2026 client never sends initialize; one that does is answered in the newest 2025 revision.
    ['2026-07-28', '2025-11-25'],
  ]) {
    it(`initialize ${asked} → ${agreed}`, async () => {
      const r = await rpc(app, initialize(asked));
      expect(r.status).toBe(200);
      expect(r.json.result.protocolVersion).toBe(agreed);
      expect(r.json.result.serverInfo).toMatchObject({ name: 'goldapi', version: pkg.version });
    });
  }

  it('GET is 405', async () => {
    const res = await fetch(`${app.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    await res.arrayBuffer();
  });

  it('an Accept header without both types is 406', async () => {
    expect((await rpc(app, initialize('2025-11-25'), { accept: 'application/json' })).status).toBe(406);
    expect((await rpc(app, initialize('2025-11-25'), { accept: '*/*' })).status).toBe(406);
  });

  it('CORS: preflight and open origin', async () => {
    const pre = await fetch(`${app.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    const r = await rpc(app, initialize('2025-11-25'), { origin: 'https://agent.example' });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('mcp: rate limit', () => {
  it('the 121st request in a window is 429 with Retry-After, and the next window is open', async () => {
    // 10 s fits the burst on a quiet machine; a loaded one gets 30 s (tests/support/rate-window.ts).
    await inOneRateWindow([10, 30], async (win) => {
      const a = await App.start({ env: { ...fake.env(), MCP_RATE_WINDOW_S: String(win) } });
      try {
        // A fresh app has counted nothing: any window with half of it left holds the burst.
        const inWindow = await windowStart(win, win / 2);
        // Half 2025-era, half 2026-07-28 requests: each POST counts once, whichever era it speaks.
        const list2026 = modern('tools/list');
        const batch = await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            i % 2 ? rpc(a, list2026.body, list2026.headers) : rpc(a, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
          ),
        );
        expect(batch.map((r) => r.status).every((s) => s === 200)).toBe(true);
        // Another client address claimed in a header does not get a fresh allowance.
        const over = await rpc(
          a,
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          { 'x-forwarded-for': '203.0.113.9', 'x-socket-address': '203.0.113.9' },
        );
        const second = await rpc(a, list2026.body, list2026.headers);
        if (!inWindow()) return 'crossed';
        expect(over.status).toBe(429);
        expect(over.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32029 } });
        expect(second.status).toBe(429);
        const retry = Number(over.headers.get('retry-after'));
        expect(retry).toBeGreaterThanOrEqual(1);
        expect(retry).toBeLessThanOrEqual(win);
        // The IETF draft's headers: on the refusal, and on every counted answer.
        expect(over.headers.get('ratelimit-policy')).toBe(`"mcp";q=120;w=${win}`);
        expect(over.headers.get('ratelimit')).toBe(`"mcp";r=0;t=${retry}`);
        expect(batch.map((r) => r.headers.get('ratelimit-policy'))).toEqual(Array(120).fill(`"mcp";q=120;w=${win}`));
        expect(batch.map((r) => Number(/;r=(\d+);/.exec(r.headers.get('ratelimit') ?? '')?.[1])).sort((x, y) => x - y)).toEqual(
          Array.from({ length: 120 }, (_, i) => i),
        );
        await sleep(retry * 1000 + 100);
        expect((await rpc(a, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).status).toBe(200);
        return 'done';
      } finally {
        await a.stop();
      }
    });
  }, 150_000);
});

describe('mcp: a 2025-11-25 client and a 2026-07-28 client on the same URL', () => {
  const CALLS: [string, Record<string, unknown>][] = [
    ['get_gold_price', { currency: 'GBP', unit: 'gram' }],
    ['get_gold_history', { range: '3m' }],
    ['get_gold_intraday', { hours: 1 }],
    ['get_central_bank_reserves', { country: 'deu' }],
    ['compare_gold_to_asset', { symbol: 'sp500', range: '6m' }],
    ['get_metal_value', { item: 'sovereign', currency: 'GBP', quote: 700 }],
  ];

  it('the 2026 client never initializes: it discovers, lists and calls in the 2026-07-28 revision', async () => {
    const client = await mcpClient2026(app);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toMatchObject({ name: 'goldapi', version: pkg.version });
    expect(client.getServerCapabilities()?.tools).toBeTruthy();
    await client.close();
  });

  it('both list the same seven tools and give the same answers, every structuredContent valid against its outputSchema (strict Ajv)', async () => {
    const c2025 = await mcpClient(app);
    const c2026 = await mcpClient2026(app);
    try {
      const [t2025, t2026] = [(await c2025.listTools()).tools, (await c2026.listTools()).tools];
      expect(t2025.map((t) => t.name)).toEqual(REGISTERED.map((t) => t.name));
      // Same names, titles, descriptions, annotations and schemas in both eras.
      expect(t2026).toEqual(t2025);
      const ajv = strictAjv();
      for (const [name, args] of CALLS) {
        const tool = t2025.find((t) => t.name === name)!;
        const validate = ajv.compile(tool.outputSchema!);
        const [r2025, r2026]: any[] = [await c2025.callTool({ name, arguments: args }), await c2026.callTool({ name, arguments: args })];
        for (const [era, r] of [
          ['2025', r2025],
          ['2026', r2026],
        ] as const) {
          expect(r.isError, `${era} ${name}`).toBeFalsy();
          expect(validate(r.structuredContent), `${era} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          expect(JSON.parse(r.content[1].text), `${era} ${name}`).toEqual(r.structuredContent);
          expect(r.content[0].text.length, `${era} ${name}`).toBeGreaterThan(40);
        }
        if (name === 'get_gold_intraday') {
          // The sampler may add a point between the two reads: the shared part is the same.
          const n = Math.min(r2025.structuredContent.count, r2026.structuredContent.count);
          expect(r2026.structuredContent.points.slice(0, n)).toEqual(r2025.structuredContent.points.slice(0, n));
        } else {
          expect(comparable(r2026.structuredContent), name).toEqual(comparable(r2025.structuredContent));
        }
      }
    } finally {
      await c2025.close();
      await c2026.close();
    }
  });

  it('raw 2026-07-28: server/discover and tools/list carry the version, the server and a public cache time; no-store and CORS as ever', async () => {
    for (const method of ['server/discover', 'tools/list']) {
      const { body, headers } = modern(method);
      const r = await rpc(app, body, { ...headers, origin: 'https://agent.example' });
      expect(r.status, method).toBe(200);
      expect(r.json.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      expect(r.json.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'goldapi', version: pkg.version });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('mcp-session-id')).toBeNull();
    }
    const d = modern('server/discover');
    const discover = await rpc(app, d.body, d.headers);
    expect(discover.json.result.supportedVersions).toContain('2026-07-28');
    expect(discover.json.result.capabilities.tools).toBeTruthy();
  });

  it('raw 2026-07-28: a tools/call whose Mcp-Name header disagrees with the body is refused', async () => {
    const { body, headers } = modern('tools/call', { name: 'get_gold_price', arguments: {} });
    const r = await rpc(app, body, { ...headers, 'mcp-name': 'get_gold_history' });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32020);
  });

  it('the Accept rule is the 2025 era’s: a 2026 request accepting only JSON is served, a 2025 one is 406', async () => {
    const { body, headers } = modern('tools/list');
    expect((await rpc(app, body, { ...headers, accept: 'application/json' })).status).toBe(200);
    expect((await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { accept: 'application/json' })).status).toBe(406);
  });

  it('GET and DELETE stay 405 whatever protocol version a request names', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${app.url}/mcp`, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toContain('POST');
      await res.arrayBuffer();
    }
  });
});
