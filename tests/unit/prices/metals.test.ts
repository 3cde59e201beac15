import { describe, expect, it } from 'vitest';
import { Spot } from '@/lib/schemas/spot';
import { readQuotes } from '@/lib/sources/upstream/quotes';
import { sleep } from '../../support/expect';
import {
  fixture,
  METALS,
  PRIMARY_FIXTURE,
  primaryPrice as primary,
  QUOTES_FIXTURE,
  type Behaviour,
  type FakeUpstream,
  type MetalSymbol as Sym,
} from '../../support/fake-upstream';
import { mcpClient } from '../../support/mcp';
import { inProcessScenarios, type Instance } from '../../support/in-process';

// The four served metals at the route handlers in process (spot, /mcp and the price widget, Request in, Response out),
// each scenario with its own fake upstream, store folder and process state (tests/support/in-process.ts): each from
// two sources, each source taken away in every fault mode, platinum and palladium degrading on their own (gold stays
// fresh, HTTP 200), never seen → null and unavailable. The units of the world's gold markets, recorded by the server's
// own sampler, and the one unit list across REST, MCP, OpenAPI and the docs are the built app's
// (tests/integration/prices/metals.test.ts).

const mid = (sym: Sym): number => readQuotes(sym, fixture(QUOTES_FIXTURE[sym]), Date.now()).value.mid;

const TTL_ENV = { CACHE_TTL_S: '1' };
/** Longer than the 1 s TTL and the 1 s retry pause after a failure. */
const PAST_TTL = 1200;
const scenario = inProcessScenarios({ env: TTL_ENV });

const spot = async (app: Instance, query = 'compact=1') => {
  const r = await app.json(`/api/v1/spot?${query}`);
  expect(r.status, query).toBe(200);
  return Spot.parse(r.body) as Spot & Record<string, any>;
};

const absurd = (sym: Sym) => ({ ...fixture(PRIMARY_FIXTURE[sym]), price: primary(sym) * 1e6 });
const absurdQuotes = (sym: Sym) =>
  fixture<any[]>(QUOTES_FIXTURE[sym]).map((e) => ({
    ...e,
    spreadProfilePrices: e.spreadProfilePrices.map((p: any) => ({ ...p, bid: p.bid * 1e6, ask: p.ask * 1e6 })),
  }));
/** Every way a source can fail, for one metal. */
const FAULTS: [string, (sym: Sym, quotes: boolean) => Behaviour][] = [
  ['refused', () => ({ mode: 'refuse' })],
  ['hung', () => ({ mode: 'hang' })],
  ['HTTP 500', () => ({ mode: 'status', status: 500, text: '{"error":"internal"}' })],
  ['HTTP 429', () => ({ mode: 'status', status: 429, text: 'Too Many Requests' })],
  ['garbage JSON', () => ({ mode: 'malformed' })],
  ['an HTML page', () => ({ mode: 'status', status: 200, text: '<!doctype html><title>Just a moment...</title>' })],
  ['an absurd value', (sym, quotes) => ({ mode: 'json', body: quotes ? absurdQuotes(sym) : absurd(sym) })],
];
const fail = (fake: FakeUpstream, metals: typeof METALS, quotes: boolean, fault: (sym: Sym, quotes: boolean) => Behaviour) => {
  for (const m of metals) fake.set(quotes ? `quotes:${m.sym}` : m.route, fault(m.sym, quotes));
};

describe('each metal, each source down in every fault mode', () => {
  // Each source's sweep on its own instance, one after the other (one instance at a time in a process).
  for (const quotes of [false, true]) {
    it(`${quotes ? 'the quotes feed' : 'gold-api.com'} down: the other source serves it fresh, attributed to it; gold stays fresh and spot 200`, async () => {
      const app = await scenario();
      const fake = app.fake;
      for (const [label, fault] of FAULTS) {
        const what = `${quotes ? 'quotes feed' : 'gold-api.com'} ${label}`;
        fake.reset();
        fail(fake, METALS, quotes, fault);
        await sleep(PAST_TTL);
        const b = await spot(app);
        expect(b.data_state.status, what).toBe('fresh');
        for (const m of METALS) {
          expect(b[m.usd], `${m.id}: ${what}`).toBe(quotes ? primary(m.sym) : mid(m.sym));
          expect(b[m.source], `${m.id}: ${what}`).toBe(quotes ? 'gold-api.com' : 'swissquote.com');
          expect(b.groups[m.id as keyof Spot['groups']].status, `${m.id}: ${what}`).toBe('fresh');
        }
      }
    });
  }
});

describe('platinum and palladium on their own', () => {
  const others = METALS.filter((m) => m.sym === 'XPT' || m.sym === 'XPD');

  it('both their sources down: their last real price, stale; gold fresh, spot 200, MCP says stale', async () => {
    const app = await scenario();
    const fake = app.fake;
    await spot(app);
    for (const [label, fault] of FAULTS.filter(([l]) => ['refused', 'HTTP 500', 'garbage JSON'].includes(l))) {
      fake.reset();
      fail(fake, others, false, fault);
      fail(fake, others, true, fault);
      await sleep(PAST_TTL);
      const b = await spot(app);
      expect(b, label).toMatchObject({ stale: false, data_state: { status: 'fresh' }, spot_usd_oz: primary('XAU'), silver_usd_oz: primary('XAG') });
      expect(b.groups.gold.status, label).toBe('fresh');
      for (const m of others) {
        // The newer of the two last real prices: the quotes bodies are dated six seconds after the gold-api.com ones.
        expect(b[m.usd], `${m.id}: ${label}`).toBe(mid(m.sym));
        expect(b[m.source], `${m.id}: ${label}`).toBe('swissquote.com');
        expect(b.groups[m.id as keyof Spot['groups']].status, `${m.id}: ${label}`).toBe('stale');
      }
    }
    const client = await mcpClient(app);
    const tool: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(tool.structuredContent.data_state.status).toBe('fresh');
    expect(tool.content[0].text).toMatch(/Platinum [\d,.]+ USD\/oz \(STALE/);
  });

  it('never seen: null, unavailable, never a number; gold fresh and spot 200', async () => {
    const app = await scenario((fake) => {
      fail(fake, others, false, () => ({ mode: 'status', status: 404, text: '{"error":"Symbol not found"}' }));
      fail(fake, others, true, () => ({ mode: 'refuse' }));
    });
    const b = await spot(app);
    expect(b).toMatchObject({ stale: false, data_state: { status: 'fresh' }, spot_usd_oz: primary('XAU') });
    for (const m of others) {
      expect(b[m.usd]).toBeNull();
      expect(b[m.source]).toBe('unavailable');
      expect(b.groups[m.id as keyof Spot['groups']]).toEqual({ status: 'unavailable', as_of: null, source: null, age_seconds: null });
    }
    const client = await mcpClient(app);
    const tool: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(tool.structuredContent.platinum_usd_oz).toBeNull();
    expect(tool.content[0].text).toContain('Platinum unavailable; Palladium unavailable');
    // The price widget for platinum shows no number; gold's widget is unaffected.
    const page = await (await app.get('/widgets/price?metal=platinum')).text();
    expect(page).toMatch(/data-f="price" aria-live="polite">Price unavailable</);
    expect(await (await app.get('/widgets/price')).text()).not.toMatch(/data-f="price" aria-live="polite">Price unavailable</);
  });
});
