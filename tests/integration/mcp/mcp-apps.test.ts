import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';
import { mcpClient, mcpClient2026, modern, rpc } from '../../support/mcp';

// The MCP Apps views (decisions §22) on the built app's /mcp over real HTTP, in both protocol eras:
// both list and read the same two documents, every tool that names a view names a listed one, an
// unknown resource is refused as the specification says, and the served documents keep their budgets.

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

const MIME = 'text/html;profile=mcp-app';
const URIS = ['ui://gold/price', 'ui://gold/chart'];

describe('mcp: the views in both eras', () => {
  it('a 2025-11-25 client and a 2026-07-28 client list and read the same two views', async () => {
    const c2025 = await mcpClient(app);
    const c2026 = await mcpClient2026(app);
    try {
      expect(c2025.getServerCapabilities()?.resources).toEqual({ listChanged: false });
      expect(c2026.getServerCapabilities()?.resources).toEqual({ listChanged: false });
      const [l2025, l2026] = [(await c2025.listResources()).resources, (await c2026.listResources()).resources];
      expect(l2025.map((r) => r.uri)).toEqual(URIS);
      expect(l2026).toEqual(l2025);
      for (const r of l2025) expect(r.mimeType, r.uri).toBe(MIME);
      for (const uri of URIS) {
        const [r2025, r2026] = [await c2025.readResource({ uri }), await c2026.readResource({ uri })];
        expect(r2025.contents).toHaveLength(1);
        expect(r2025.contents[0]).toMatchObject({ uri, mimeType: MIME });
        expect((r2025.contents[0] as { text: string }).text).toMatch(/^<!doctype html>/);
        expect(r2026.contents).toEqual(r2025.contents);
      }
    } finally {
      await c2025.close();
      await c2026.close();
    }
  });

  it('in both eras every tool names its view in _meta.ui.resourceUri (and the flat key), a listed resource', async () => {
    const c2025 = await mcpClient(app);
    const c2026 = await mcpClient2026(app);
    try {
      for (const c of [c2025, c2026]) {
        const listed = new Set((await c.listResources()).resources.map((r) => r.uri));
        const named = Object.fromEntries(
          (await c.listTools()).tools.map((t) => {
            const meta = t._meta as { ui?: { resourceUri?: string }; 'ui/resourceUri'?: string } | undefined;
            expect(meta?.['ui/resourceUri'], t.name).toBe(meta?.ui?.resourceUri);
            return [t.name, meta?.ui?.resourceUri];
          }),
        );
        expect(named).toEqual({
          get_gold_price: 'ui://gold/price',
          get_gold_history: 'ui://gold/chart',
          get_gold_intraday: 'ui://gold/chart',
          get_central_bank_reserves: undefined,
          compare_gold_to_asset: 'ui://gold/chart',
          get_data_status: undefined,
          get_metal_value: undefined,
        });
        for (const uri of Object.values(named)) if (uri) expect(listed.has(uri), uri).toBe(true);
      }
    } finally {
      await c2025.close();
      await c2026.close();
    }
  });

  it('raw 2026-07-28: resources/list and resources/read may be cached publicly for an hour; the answer itself is no-store', async () => {
    for (const [method, params] of [
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'ui://gold/chart' }],
    ] as const) {
      const { body, headers } = modern(method, params);
      const r = await rpc(app, body, headers);
      expect(r.status, method).toBe(200);
      expect(r.json.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      expect(r.headers.get('cache-control'), method).toBe('no-store');
    }
  });

  it('an unknown resource is -32602 with its URI in both eras; malformed params are -32602 in one sentence', async () => {
    const unknown = 'ui://gold/nothing';
    const legacy = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: unknown } });
    expect(legacy.json.error).toMatchObject({ code: -32602, data: { uri: unknown } });
    const m = modern('resources/read', { uri: unknown });
    const current = await rpc(app, m.body, m.headers);
    expect(current.json.error).toMatchObject({ code: -32602, data: { uri: unknown } });
    const malformed = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 7 } });
    expect(malformed.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Invalid params for resources/read: params.uri must be a resource URI (a string such as "ui://gold/price")' },
    });
  });

  it('the served documents keep the budgets of decisions §22: price ≤ 15 KB gzipped, chart ≤ 80 KB gzipped', async () => {
    const c = await mcpClient(app);
    const size = async (uri: string) => gzipSync(((await c.readResource({ uri })).contents[0] as { text: string }).text).length;
    const sizes = { price: await size('ui://gold/price'), chart: await size('ui://gold/chart') };
    await c.close();
    expect(sizes.price, JSON.stringify(sizes)).toBeLessThanOrEqual(15_000);
    expect(sizes.chart, JSON.stringify(sizes)).toBeLessThanOrEqual(80_000);
  });
});
