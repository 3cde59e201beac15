import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '@/lib/schemas/common';
import { Spot } from '@/lib/schemas/spot';
import { sleep } from '../../support/expect';
import { fixture, type Behaviour } from '../../support/fake-upstream';
import { inProcessScenarios } from '../../support/in-process';

// Freshness states, outages, garbage and concurrency at the spot route handler, Request in, Response out, each
// scenario with its own fake upstream, store folder and process state (tests/support/in-process.ts); a restart is a
// new process on the same store folder. Every cache TTL is 1 s (CACHE_TTL_S) so an outage is noticed on the next
// request. These scenarios are about one source: the quotes feed refuses throughout, so gold and silver come from
// gold-api.com alone (tests/integration/prices/two-sources.test.ts covers the pair). What only the built app shows
// (the whole path through a real restart with the price page, a burst over real connections) is in
// tests/integration/prices/spot-states.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
/** Longer than the 1 s TTL and the 1 s retry pause after a failure. */
const PAST_TTL = 1200;

const scenario = inProcessScenarios({ env: { CACHE_TTL_S: '1' }, prepare: (fake) => fake.set('quotes', { mode: 'refuse' }) });

describe('a restart', () => {
  it('a restart while the upstream is up and within the TTL serves the stored price as fresh', async () => {
    const app = await scenario(undefined, { CACHE_TTL_S: '30' });
    await app.json('/api/v1/spot?compact=1');
    await app.restart();
    const again = await app.json('/api/v1/spot?compact=1');
    expect(again.body.data_state).toMatchObject({ status: 'fresh', source: 'cache' });
    expect(app.fake.calls.gold).toBe(1);
  });

  it('a new process keeps nothing in memory: on an empty store folder it asks the upstream again', async () => {
    const app = await scenario(undefined, { CACHE_TTL_S: '30' });
    await app.json('/api/v1/spot?compact=1');
    await app.restart({ DATA_DIR: fs.mkdtempSync(path.join(app.dataDir, 'empty-')) });
    const again = await app.json('/api/v1/spot?compact=1');
    expect(again.body.data_state).toMatchObject({ status: 'fresh', source: 'upstream' });
    expect(app.fake.calls.gold).toBe(2);
  });
});

describe('gold never seen', () => {
  for (const [label, b] of [
    ['refused', { mode: 'refuse' }],
    ['HTTP 500', { mode: 'status', status: 500 }],
    ['HTTP 429', { mode: 'status', status: 429, text: 'Too Many Requests' }],
    ['malformed', { mode: 'malformed' }],
    ['absurd', { mode: 'json', body: { ...gold, price: 4.2e9 } }],
  ] as [string, Behaviour][]) {
    it(`${label} → 503 unavailable with data_state`, async () => {
      const app = await scenario((f) => f.set('gold', b));
      const r = await app.json('/api/v1/spot');
      expect(r.status).toBe(503);
      ErrorBody.parse(r.body);
      expect(r.body.error).toMatch(/unavailable/i);
      expect(r.body.data_state).toEqual({ status: 'unavailable', as_of: null, source: null, age_seconds: null });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body).not.toHaveProperty('xau');
    });
  }
});

describe('garbage is never served', () => {
  const garbage: [string, Behaviour][] = [
    ['malformed JSON', { mode: 'malformed' }],
    ['wrong shape', { mode: 'json', body: { data: { XAU: gold.price } } }],
    ['price as a string', { mode: 'json', body: { ...gold, price: String(gold.price) } }],
    ['zero', { mode: 'json', body: { ...gold, price: 0 } }],
    ['negative', { mode: 'json', body: { ...gold, price: -gold.price } }],
    ['a 40% jump', { mode: 'json', body: { ...gold, price: gold.price * 1.4 } }],
    ['a 40% drop', { mode: 'json', body: { ...gold, price: gold.price * 0.6 } }],
    ['another metal', { mode: 'json', body: { ...gold, symbol: 'XAG' } }],
    ['an error body with HTTP 200', { mode: 'json', body: { error: 'rate limited' } }],
    ['HTTP 500 with a body', { mode: 'status', status: 500, text: '{"error":"internal"}' }],
  ];
  it('after a real price, each bad answer leaves the last real price, flagged stale', async () => {
    const app = await scenario();
    expect((await app.json('/api/v1/spot?compact=1')).body.spot_usd_oz).toBe(gold.price);
    for (const [label, b] of garbage) {
      app.fake.set('gold', b);
      await sleep(PAST_TTL);
      const r = await app.json('/api/v1/spot?compact=1');
      expect(r.status, label).toBe(200);
      Spot.parse(r.body);
      expect(r.body.spot_usd_oz, label).toBe(gold.price);
      expect(r.body.stale, label).toBe(true);
      expect(r.body.data_state.status, label).toBe('stale');
    }
  });

  it('a small real move is accepted', async () => {
    const app = await scenario();
    await app.json('/api/v1/spot?compact=1');
    const moved = fixture('goldapi-price-XAU-2026-09-03.json');
    app.fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body).toMatchObject({ stale: false, spot_usd_oz: moved.price });
  });
});

describe('a hung upstream', () => {
  // The hang never answers: only the handler's own deadline ends these requests (none is timed; a loaded
  // machine says nothing about the deadline, and a missed one holds the request until the test fails).
  it('never seen: 503 at the timeout, not held by the hang', async () => {
    const app = await scenario((f) => f.set('gold', { mode: 'hang' }));
    const r = await app.json('/api/v1/spot');
    expect(r.status).toBe(503);
  });

  it('after a real price: stale at the timeout, not held by the hang', async () => {
    const app = await scenario();
    await app.json('/api/v1/spot?compact=1');
    app.fake.set('gold', { mode: 'hang' }).set('silver', { mode: 'hang' }).set('crypto', { mode: 'hang' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body).toMatchObject({ stale: true, spot_usd_oz: gold.price });
  });
});

describe('each other group fails alone', () => {
  it('silver never seen: null fields, source unavailable, still 200', async () => {
    const app = await scenario((f) => f.set('silver', { mode: 'refuse' }));
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ silver_usd_oz: null, gold_silver_ratio: null, silver_source: 'unavailable', stale: false });
    expect(r.body.groups.silver).toEqual({ status: 'unavailable', as_of: null, source: null, age_seconds: null });
    expect(r.body.data_state.status).toBe('fresh');
  });

  it('silver down after a real price: last real price, group stale', async () => {
    const app = await scenario();
    await app.json('/api/v1/spot?compact=1');
    app.fake.set('silver', { mode: 'status', status: 502 });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.silver_usd_oz).toBe(silver.price);
    expect(r.body.groups.silver).toMatchObject({ status: 'stale', as_of: new Date(silver.updatedAt).toISOString() });
    expect(r.body.data_state.status).toBe('fresh');
  });

  it('FX never seen: the bundled static table, fx_stale', async () => {
    const app = await scenario((f) => f.set('fx', { mode: 'status', status: 500 }));
    const staticTable = fixture('er-api-latest-USD.json');
    const r = await app.json('/api/v1/spot?currency=EUR');
    expect(r.status).toBe(200);
    expect(r.body.fx_stale).toBe(true);
    expect(r.body.fx_source).toMatch(/static/);
    expect(r.body.fx_rate).toBe(staticTable.rates.EUR);
    expect(r.body.fx_rates).toEqual(staticTable.rates);
    expect(r.body.groups.fx).toMatchObject({
      status: 'stale',
      source: 'snapshot',
      as_of: new Date(staticTable.time_last_update_unix * 1000).toISOString(),
    });
    expect(r.body.data_state.status).toBe('fresh');
  });

  it('FX down after a live table: that table, fx_stale, not the static one', async () => {
    const older = fixture('er-api-latest-USD-2024-08-19.json');
    const app = await scenario((f) => f.set('fx', { mode: 'ok', fixture: 'er-api-latest-USD-2024-08-19.json' }));
    const live = await app.json('/api/v1/spot?currency=EUR&compact=1');
    expect(live.body).toMatchObject({ fx_stale: false, fx_rate: older.rates.EUR });
    app.fake.set('fx', { mode: 'refuse' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?currency=EUR&compact=1');
    expect(r.body).toMatchObject({ fx_stale: true, fx_rate: older.rates.EUR, fx_source: 'open.er-api.com' });
    expect(r.body.groups.fx).toMatchObject({ status: 'stale', source: 'cache' });
  });

  it('tokens never seen: token fields null, source unavailable', async () => {
    const app = await scenario((f) => f.set('crypto', { mode: 'status', status: 429, fixture: 'coingecko-error-429.json' }));
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.status).toBe(200);
    for (const k of [
      'btc_usd',
      'btc_gold_oz',
      'btc_gold_kg',
      'btc_market_cap_usd',
      'btc_vs_gold_mcap_pct',
      'bitcoin_gold_parity_usd',
      'paxg_usd',
      'xaut_usd',
    ]) {
      expect(r.body[k], k).toBeNull();
    }
    expect(r.body.token_source).toBe('unavailable');
    expect(r.body.groups.tokens.status).toBe('unavailable');
    expect(r.body.gold_market_cap_usd).toBeGreaterThan(0);
  });

  it('tokens: the 429 body served with HTTP 200 counts as down', async () => {
    const app = await scenario((f) => f.set('crypto', { mode: 'json', body: fixture('coingecko-error-429.json') }));
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.btc_usd).toBeNull();
    expect(r.body.token_source).toBe('unavailable');
  });

  it('tokens down after real prices: last real prices, group stale', async () => {
    const coins = fixture('coingecko-simple-price.json');
    const app = await scenario();
    await app.json('/api/v1/spot?compact=1');
    app.fake.set('crypto', { mode: 'malformed' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.btc_usd).toBe(coins.bitcoin.usd);
    expect(r.body.groups.tokens.status).toBe('stale');
  });
});

describe('single-flight', () => {
  it('200 concurrent requests on a cold cache make one upstream call per feed', async () => {
    const app = await scenario((f) => f.set('gold', { mode: 'ok', delayMs: 300 }), { CACHE_TTL_S: '30' });
    const results = await Promise.all(Array.from({ length: 200 }, () => app.json('/api/v1/spot?compact=1')));
    expect(results.every((r) => r.status === 200 && r.body.spot_usd_oz === gold.price)).toBe(true);
    expect(app.fake.calls.gold).toBe(1);
    expect(app.fake.calls.silver).toBe(1);
    expect(app.fake.calls.fx).toBe(1);
    expect(app.fake.calls.crypto).toBe(1);
  });
});

describe('after a failure', () => {
  it('one failure is retried by the next request; two in a row pause the upstream for the back-off', async () => {
    const app = await scenario((f) => f.set('gold', { mode: 'status', status: 502 }), { CACHE_TTL_S: '30' });
    expect((await app.json('/api/v1/spot?compact=1')).status).toBe(503);
    expect(app.fake.calls.gold).toBe(1);
    // The upstream is back: the next request asks it at once instead of answering from the failure.
    app.fake.reset();
    const next = await app.json('/api/v1/spot?compact=1');
    expect(next.status).toBe(200);
    expect(next.body.data_state).toMatchObject({ status: 'fresh', source: 'upstream' });
    expect(app.fake.calls.gold).toBe(2);
  });

  it('two failures in a row, then one call per back-off however many requests come', async () => {
    const down = await scenario((f) => f.set('gold', { mode: 'status', status: 502 }), { CACHE_TTL_S: '30' });
    for (let i = 0; i < 10; i++) expect((await down.json('/api/v1/spot?compact=1')).status).toBe(503);
    expect(down.fake.calls.gold).toBe(2);
  });
});
