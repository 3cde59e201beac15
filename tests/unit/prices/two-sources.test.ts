import { describe, expect, it } from 'vitest';
import { ErrorBody } from '@/lib/schemas/common';
import { Spot } from '@/lib/schemas/spot';
import { readQuotes } from '@/lib/sources/upstream/quotes';
import type { Instance } from '../../support/in-process';
import { sleep } from '../../support/expect';
import { fixture, QUOTES_FIXTURE, type Behaviour } from '../../support/fake-upstream';
import { inProcessScenarios } from '../../support/in-process';

// Spot from two independent sources (gold-api.com, then the quotes feed), at the route handler in process
// (tests/support/in-process.ts): either one taken away in any fault mode leaves spot fresh, real and correctly
// attributed; both away leaves the last real price, stale; a restart finds the source that is up; a wrong number
// inside the jump rule is caught by the cross-check; a failing source is not hammered. Both sources up on every
// surface (MCP) and a weekend across spot, MCP, the widget and the cron route are in
// tests/integration/prices/two-sources.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const quoteOf = (metal: 'XAU' | 'XAG') => readQuotes(metal, fixture(QUOTES_FIXTURE[metal]), Date.now());
const xau = quoteOf('XAU');
const xag = quoteOf('XAG');
const iso = (ms: number) => new Date(ms).toISOString();
const TTL_ENV = { CACHE_TTL_S: '1' };
/** Longer than the 1 s TTL and the 1 s retry pause after a failure. */
const PAST_TTL = 1200;

const scenario = inProcessScenarios({ env: TTL_ENV });

const spot = async (app: Instance) => {
  const r = await app.json('/api/v1/spot?compact=1');
  expect(r.status).toBe(200);
  return Spot.parse(r.body);
};

/** Every way a source can fail, for gold-api.com (gold and silver) and for the quotes feed (both metals). */
const primaryFaults: [string, Behaviour, Behaviour][] = [
  ['refused', { mode: 'refuse' }, { mode: 'refuse' }],
  ['hung', { mode: 'hang' }, { mode: 'hang' }],
  ['HTTP 500', { mode: 'status', status: 500, text: '{"error":"internal"}' }, { mode: 'status', status: 500 }],
  ['HTTP 429', { mode: 'status', status: 429, text: 'Too Many Requests' }, { mode: 'status', status: 429 }],
  ['garbage JSON', { mode: 'malformed' }, { mode: 'malformed' }],
  [
    'an HTML page',
    { mode: 'status', status: 200, text: '<!doctype html><title>Just a moment...</title>' },
    { mode: 'status', status: 200, text: '<html></html>' },
  ],
  ['an absurd value', { mode: 'json', body: { ...gold, price: gold.price * 1e6 } }, { mode: 'json', body: { ...silver, price: silver.price * 1e6 } }],
];
const absurdQuotes = fixture<any[]>(QUOTES_FIXTURE.XAU).map((e) => ({
  ...e,
  spreadProfilePrices: e.spreadProfilePrices.map((p: any) => ({ ...p, bid: p.bid * 1e6, ask: p.ask * 1e6 })),
}));
const quotesFaults: [string, Behaviour][] = [
  ['refused', { mode: 'refuse' }],
  ['hung', { mode: 'hang' }],
  ['HTTP 500', { mode: 'status', status: 500, text: '{"error":"internal"}' }],
  ['HTTP 429', { mode: 'status', status: 429, text: '{"error":"too many requests"}' }],
  ['garbage JSON', { mode: 'malformed' }],
  ['an HTML page', { mode: 'status', status: 200, text: '<!doctype html><title>Maintenance</title>' }],
  ['an absurd value', { mode: 'json', body: absurdQuotes }],
];

describe('one source down, in every fault mode', () => {
  it('gold-api.com down: spot stays fresh from the quotes feed, attributed to it', async () => {
    const app = await scenario();
    for (const [label, goldFault, silverFault] of primaryFaults) {
      app.fake.reset().set('gold', goldFault).set('silver', silverFault);
      const before = app.fake.calls.gold;
      await sleep(PAST_TTL);
      const b = await spot(app);
      expect(app.fake.calls.gold, label).toBeGreaterThan(before);
      expect(b, label).toMatchObject({
        spot_usd_oz: xau.value.mid,
        price_source: 'swissquote.com',
        silver_usd_oz: xag.value.mid,
        silver_source: 'swissquote.com',
        stale: false,
        data_state: { status: 'fresh', as_of: iso(xau.asOf) },
        cross_check: { status: 'single', difference_pct: null },
        bid_usd_oz: xau.value.bid,
        ask_usd_oz: xau.value.ask,
      });
      expect(b.groups.silver.status, label).toBe('fresh');
      expect(b.sources[0], label).toEqual({ name: 'gold-api.com', price_usd_oz: null, as_of: null, status: 'unavailable' });
    }
  });

  it('the quotes feed down: spot stays fresh from gold-api.com, no bid or ask', async () => {
    const app = await scenario();
    for (const [label, fault] of quotesFaults) {
      app.fake.reset().set('quotes', fault);
      const before = app.fake.calls.quotes;
      await sleep(PAST_TTL);
      const b = await spot(app);
      expect(app.fake.calls.quotes, label).toBeGreaterThan(before);
      expect(b, label).toMatchObject({
        spot_usd_oz: gold.price,
        price_source: 'gold-api.com',
        silver_usd_oz: silver.price,
        silver_source: 'gold-api.com',
        stale: false,
        data_state: { status: 'fresh' },
        cross_check: { status: 'single', difference_pct: null },
        bid_usd_oz: null,
        ask_usd_oz: null,
        quote_source: 'unavailable',
      });
      expect(b.sources[1], label).toEqual({ name: 'swissquote.com', price_usd_oz: null, as_of: null, status: 'unavailable' });
    }
  });
});

describe('both sources down', () => {
  it('after both were seen: the newer last real price, stale, attributed to its source', async () => {
    const app = await scenario();
    await spot(app);
    app.fake.set('gold', { mode: 'refuse' }).set('silver', { mode: 'status', status: 500 }).set('quotes', { mode: 'malformed' });
    await sleep(PAST_TTL);
    const b = await spot(app);
    // The quotes body was captured six seconds after the gold-api body: it is the newer real price.
    expect(xau.asOf).toBeGreaterThan(Date.parse(gold.updatedAt));
    expect(b).toMatchObject({ stale: true, spot_usd_oz: xau.value.mid, price_source: 'swissquote.com', price_as_of: iso(xau.asOf) });
    expect(b.data_state).toMatchObject({ status: 'stale', source: 'cache', as_of: iso(xau.asOf) });
    expect(b).toMatchObject({ bid_usd_oz: null, ask_usd_oz: null, cross_check: { status: 'single' } });
    expect(b.sources.map((s) => s.status)).toEqual(['stale', 'stale']);
    expect(b.silver_usd_oz === silver.price || b.silver_usd_oz === xag.value.mid).toBe(true);
    expect(b.groups.silver.status).toBe('stale');
  });

  it('never seen: 503', async () => {
    const app = await scenario((f) => f.set('gold', { mode: 'status', status: 500 }).set('quotes', { mode: 'refuse' }));
    const r = await app.json('/api/v1/spot');
    expect(r.status).toBe(503);
    ErrorBody.parse(r.body);
    expect(r.body.data_state.status).toBe('unavailable');
  });
});

describe('restarts during a one-source outage', () => {
  it('a new process answers fresh from the source that is up', async () => {
    const app = await scenario();
    await spot(app);
    app.fake.set('gold', { mode: 'refuse' }).set('silver', { mode: 'refuse' });
    await app.restart();
    // Past the TTL, so the stored primary price no longer counts as fresh however fast the restart was.
    await sleep(PAST_TTL);
    expect(await spot(app)).toMatchObject({
      stale: false,
      spot_usd_oz: xau.value.mid,
      price_source: 'swissquote.com',
      data_state: { status: 'fresh' },
    });
    app.fake.reset().set('quotes', { mode: 'hang' });
    await app.restart();
    await sleep(PAST_TTL);
    expect(await spot(app)).toMatchObject({ stale: false, spot_usd_oz: gold.price, price_source: 'gold-api.com', data_state: { status: 'fresh' } });
  });
});

describe('cross-check', () => {
  it('the primary jumps within the 25% rule while the quotes feed holds: diverged, the price closer to the last one served', async () => {
    const app = await scenario();
    const before = await spot(app);
    expect(before).toMatchObject({ price_source: 'gold-api.com', cross_check: { status: 'agree' } });
    const jumped = gold.price * 1.1;
    app.fake.set('gold', { mode: 'json', body: { ...gold, price: jumped } });
    await sleep(PAST_TTL);
    const b = await spot(app);
    expect(b.cross_check).toEqual({ status: 'diverged', difference_pct: Number(((jumped / xau.value.mid - 1) * 100).toFixed(3)) });
    expect(b).toMatchObject({ spot_usd_oz: xau.value.mid, price_source: 'swissquote.com', stale: false, data_state: { status: 'fresh' } });
    // Both numbers stay visible, and the divergence is logged.
    expect(b.sources.map((s) => s.price_usd_oz)).toEqual([jumped, xau.value.mid]);
    expect(app.output).toMatch(/gold sources diverged/);
  });
});

describe('fair use', () => {
  it('many clients, one request per source and metal per TTL; a failing source is not hammered', async () => {
    const app = await scenario((f) => f.set('quotes', { mode: 'status', status: 429 }), { CACHE_TTL_S: '30' });
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const rs = await Promise.all(Array.from({ length: 20 }, () => app.get('/api/v1/spot?compact=1')));
      await Promise.all(rs.map((r) => r.arrayBuffer()));
    }
    expect(app.fake.calls.gold).toBe(1);
    expect(app.fake.calls.silver).toBe(1);
    expect(app.fake.calls.platinum).toBe(1);
    expect(app.fake.calls.palladium).toBe(1);
    // Each of the four metals twice: a first failure is retried by the next request, and after two in a
    // row the feed waits before asking again.
    for (const metal of ['XAU', 'XAG', 'XPT', 'XPD'] as const) expect(app.fake.calls[`quotes:${metal}`], metal).toBe(2);
    expect(app.fake.calls.quotes).toBe(8);
  });
});
