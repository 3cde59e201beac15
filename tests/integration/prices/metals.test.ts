import { describe, expect, it } from 'vitest';
import { Spot } from '@/lib/schemas/spot';
import type { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { fixture, METALS, primaryPrice as primary } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { mcpClient } from '../../support/mcp';
import { scenarios } from '../../support/scenario';

// The four served metals against the built app: the units of the world's gold markets, computed here from their
// grams, with every metal recorded by the server's own sampler; and one unit list on REST, MCP, OpenAPI and the docs
// page. Each metal from two sources, each source down in every fault mode, platinum and palladium degrading on their
// own and never seen run at the route handlers in process (tests/unit/prices/metals.test.ts).

// Two scenarios, each with its own environment: a spare app would never be taken.
const scenario = scenarios({ spare: false });

const spot = async (app: App, query = 'compact=1') => {
  const r = await app.json(`/api/v1/spot?${query}`);
  expect(r.status, query).toBe(200);
  return Spot.parse(r.body) as Spot & Record<string, any>;
};

/** Grams per unit, from the definitions (decisions §3 and §17), written out here rather than read from the code. */
const GRAMS: Record<string, number> = { tola: 11.6638038, tael: 37.429, baht: 15.244 };
const GRAMS_PER_TROY_OZ = 31.1034768;
const round2 = (x: number) => Math.round(x * 100) / 100;

describe('units of the world’s gold markets', () => {
  it('tola, tael and baht in two currencies each, karats included; every metal recorded in the intraday series', async () => {
    const { app } = await scenario(undefined, { CACHE_TTL_S: '30', SAMPLER: 'on', SAMPLE_INTERVAL_S: '2', ...marketClockAt(OPEN_DAY) });
    for (const [unit, currencies] of [
      ['tola', ['INR', 'AED']],
      ['tael', ['HKD', 'USD']],
      ['baht', ['THB', 'EUR']],
    ] as const) {
      for (const currency of currencies) {
        const b = await spot(app, `currency=${currency}&unit=${unit}&compact=1`);
        const perUnit = ((b.spot_usd_oz * b.fx_rate) / GRAMS_PER_TROY_OZ) * GRAMS[unit];
        expect(b.xau, `${unit} ${currency}`).toEqual({ price: round2(perUnit), currency, unit });
        for (const k of [24, 22, 21, 18, 14, 10, 9]) {
          expect(b.karats[`${k}k` as keyof Spot['karats']], `${unit} ${currency} ${k}k`).toBe(round2((perUnit * k) / 24));
        }
        // A unit changes xau and karats only: the raw USD per troy ounce stays as the source gave it.
        expect(b.spot_usd_oz).toBe(primary('XAU'));
      }
    }
    // The currency's rate comes from the recorded FX table.
    const fx = fixture('er-api-latest-USD.json').rates;
    expect((await spot(app, 'currency=INR&unit=tola&compact=1')).fx_rate).toBe(fx.INR);

    await sleep(3000);
    for (const m of METALS) {
      const r = await app.json(`/api/v1/intraday?symbol=${m.intraday}&hours=1`);
      expect(r.status, m.id).toBe(200);
      expect(r.body.symbol).toBe(m.intraday);
      expect(r.body.count, m.id).toBeGreaterThan(0);
      expect(new Set(r.body.points.map((p: { p: number }) => p.p)), m.id).toEqual(new Set([primary(m.sym)]));
    }
  });

  it('one unit list: REST, MCP, OpenAPI and the widget builder offer the same units', async () => {
    const { app } = await scenario(undefined, { CACHE_TTL_S: '30' });
    const rest = (await app.json('/api/v1/spot?unit=stone')).body.valid;

    const client = await mcpClient(app);
    const tools = await client.listTools();
    await client.close();
    const mcp = (tools.tools.find((t) => t.name === 'get_gold_price')!.inputSchema.properties as any).unit.enum;

    const doc = (await app.json('/api/openapi.json')).body;
    // The canonical list; the document also admits any letter case beside it (anyOf with a pattern).
    const unitSchema = doc.paths['/api/v1/spot'].get.parameters.find((p: any) => p.name === 'unit').schema;
    const openapi = unitSchema.enum ?? unitSchema.anyOf?.find((s: any) => s.enum)?.enum;

    const page = await (await app.get('/docs/widgets')).text();
    const select = page.match(/<select id="b-unit"[^>]*>([\s\S]*?)<\/select>/)![1];
    const builder = [...select.matchAll(/<option[^>]*value="([^"]+)"/g)].map((m) => m[1]);

    expect(rest).toEqual(['oz', 'gram', 'kg', 'tola', 'tael', 'baht', 'chi', 'luong', 'don', 'pavan', 'dwt', 'grain']);
    expect(mcp).toEqual(rest);
    expect(openapi).toEqual(rest);
    expect(builder).toEqual(rest);
  });
});
