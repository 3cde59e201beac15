import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '@/lib/schemas/common';
import { Spot } from '@/lib/schemas/spot';
import { sleep } from '../../support/expect';
import { fixture, type Behaviour } from '../../support/fake-upstream';
import { scenarios } from '../../support/scenario';

// Freshness states, outages, garbage and concurrency. Each scenario gets its own app and store,
// with every cache TTL at 1 s (CACHE_TTL_S) so an outage is noticed on the next request.
// These scenarios are about one source: the quotes feed refuses throughout, so gold and silver come
// from gold-api.com alone (tests/integration/prices/two-sources.test.ts covers the pair).

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const goldAsOf = new Date(gold.updatedAt).toISOString();
const TTL_ENV = { CACHE_TTL_S: '1' };
/** Longer than the 1 s TTL and the 1 s retry pause after a failure. */
const PAST_TTL = 1200;

// The quotes feed refuses in every scenario here (see above).
const scenario = scenarios({ env: TTL_ENV, prepare: (fake) => fake.set('quotes', { mode: 'refuse' }) });

describe('gold: fresh → outage → stale → restart → recovery', () => {
  it('follows the whole path and never invents a price', async () => {
    const { app, fake } = await scenario();
    const fresh = await app.json('/api/v1/spot?compact=1');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ stale: false, data_state: { status: 'fresh' } });

    fake.set('gold', { mode: 'refuse' });
    await sleep(PAST_TTL);
    const stale = await app.json('/api/v1/spot?compact=1&currency=EUR');
    expect(stale.status).toBe(200);
    Spot.parse(stale.body);
    expect(stale.body.stale).toBe(true);
    expect(stale.body.data_state).toMatchObject({ status: 'stale', as_of: goldAsOf, source: 'cache' });
    expect(stale.body.data_state.age_seconds).toBe(Math.floor((Date.parse(stale.body.updated_at) - Date.parse(goldAsOf)) / 1000));
    expect(stale.body.price_as_of).toBe(goldAsOf);
    expect(stale.body.price_as_of).not.toBe(stale.body.updated_at);
    expect(stale.body.spot_usd_oz).toBe(gold.price);
    expect(stale.body.groups.gold.status).toBe('stale');
    // The price page shows the last real price, flagged stale with its age, in the same currency (decisions §27).
    const page = await (await app.get('/gold/eur/oz')).text();
    expect(page).toContain(`data-f="price" data-v="${stale.body.xau.price}"`);
    expect(page).toMatch(/<span data-f="state" data-v="" class="badge">Stale · [^<]*ago<\/span>/);

    // A new process during the outage still has the last real price, from the store.
    await app.restart();
    const afterRestart = await app.json('/api/v1/spot?compact=1');
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body).toMatchObject({ stale: true, spot_usd_oz: gold.price, price_as_of: goldAsOf });
    expect(afterRestart.body.data_state).toMatchObject({ status: 'stale', source: 'cache' });

    fake.reset();
    await sleep(PAST_TTL);
    const recovered = await app.json('/api/v1/spot?compact=1');
    expect(recovered.body).toMatchObject({ stale: false, data_state: { status: 'fresh', source: 'upstream' } });
    expect(recovered.body.price_as_of).toBe(recovered.body.updated_at);
  });

  it('a restart while the upstream is up and within the TTL serves the stored price as fresh', async () => {
    const { app, fake } = await scenario(undefined, { CACHE_TTL_S: '30' });
    await app.json('/api/v1/spot?compact=1');
    await app.restart();
    const again = await app.json('/api/v1/spot?compact=1');
    expect(again.body.data_state).toMatchObject({ status: 'fresh', source: 'cache' });
    expect(fake.calls.gold).toBe(1);
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
      const { app } = await scenario((f) => f.set('gold', b));
      const r = await app.json('/api/v1/spot');
      expect(r.status).toBe(503);
      ErrorBody.parse(r.body);
      expect(r.body.error).toMatch(/unavailable/i);
      expect(r.body.data_state).toEqual({ status: 'unavailable', as_of: null, source: null, age_seconds: null });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body).not.toHaveProperty('xau');
      if (label === 'refused') {
        // The price page says so too: 503, never stored, no number where the price goes (decisions §27).
        const page = await app.get('/gold/eur/gram');
        const html = await page.text();
        expect(page.status).toBe(503);
        expect(page.headers.get('cache-control')).toBe('no-store');
        expect(html).toContain('<span data-f="price" data-v="">Price unavailable</span>');
        expect(html).not.toMatch(/data-f="(?:m-gold|k-24k)" data-v="\d/);
      }
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
    const { app, fake } = await scenario();
    expect((await app.json('/api/v1/spot?compact=1')).body.spot_usd_oz).toBe(gold.price);
    for (const [label, b] of garbage) {
      fake.set('gold', b);
      await sleep(PAST_TTL);
      const r = await app.json('/api/v1/spot?compact=1');
      expect(r.status, label).toBe(200);
      expect(r.body.spot_usd_oz, label).toBe(gold.price);
      expect(r.body.stale, label).toBe(true);
      expect(r.body.data_state.status, label).toBe('stale');
    }
  });

  it('a small real move is accepted', async () => {
    const { app, fake } = await scenario();
    await app.json('/api/v1/spot?compact=1');
    const moved = fixture('goldapi-price-XAU-2026-09-03.json');
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body).toMatchObject({ stale: false, spot_usd_oz: moved.price });
  });
});

describe('a hung upstream', () => {
  // The hang never answers: only the app's own deadline ends these requests (none is timed; a loaded
  // machine says nothing about the deadline, and a missed one holds the request until the test fails).
  it('never seen: 503 at the timeout, not held by the hang', async () => {
    const { app } = await scenario((f) => f.set('gold', { mode: 'hang' }));
    const r = await app.json('/api/v1/spot');
    expect(r.status).toBe(503);
  });

  it('after a real price: stale at the timeout, not held by the hang', async () => {
    const { app, fake } = await scenario(undefined, TTL_ENV);
    await app.json('/api/v1/spot?compact=1');
    fake.set('gold', { mode: 'hang' }).set('silver', { mode: 'hang' }).set('crypto', { mode: 'hang' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body).toMatchObject({ stale: true, spot_usd_oz: gold.price });
  });
});

describe('each other group fails alone', () => {
  it('silver never seen: null fields, source unavailable, still 200', async () => {
    const { app } = await scenario((f) => f.set('silver', { mode: 'refuse' }));
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ silver_usd_oz: null, gold_silver_ratio: null, silver_source: 'unavailable', stale: false });
    expect(r.body.groups.silver).toEqual({ status: 'unavailable', as_of: null, source: null, age_seconds: null });
    expect(r.body.data_state.status).toBe('fresh');
  });

  it('silver down after a real price: last real price, group stale', async () => {
    const { app, fake } = await scenario();
    await app.json('/api/v1/spot?compact=1');
    fake.set('silver', { mode: 'status', status: 502 });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.silver_usd_oz).toBe(silver.price);
    expect(r.body.groups.silver).toMatchObject({ status: 'stale', as_of: new Date(silver.updatedAt).toISOString() });
    expect(r.body.data_state.status).toBe('fresh');
  });

  it('FX never seen: the bundled static table, fx_stale', async () => {
    const { app } = await scenario((f) => f.set('fx', { mode: 'status', status: 500 }));
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
    const { app, fake } = await scenario((f) => f.set('fx', { mode: 'ok', fixture: 'er-api-latest-USD-2024-08-19.json' }));
    const live = await app.json('/api/v1/spot?currency=EUR&compact=1');
    expect(live.body).toMatchObject({ fx_stale: false, fx_rate: older.rates.EUR });
    fake.set('fx', { mode: 'refuse' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?currency=EUR&compact=1');
    expect(r.body).toMatchObject({ fx_stale: true, fx_rate: older.rates.EUR, fx_source: 'open.er-api.com' });
    expect(r.body.groups.fx).toMatchObject({ status: 'stale', source: 'cache' });
  });

  it('tokens never seen: token fields null, source unavailable', async () => {
    const { app } = await scenario((f) => f.set('crypto', { mode: 'status', status: 429, fixture: 'coingecko-error-429.json' }));
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
    const { app } = await scenario((f) => f.set('crypto', { mode: 'json', body: fixture('coingecko-error-429.json') }));
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.btc_usd).toBeNull();
    expect(r.body.token_source).toBe('unavailable');
  });

  it('tokens down after real prices: last real prices, group stale', async () => {
    const coins = fixture('coingecko-simple-price.json');
    const { app, fake } = await scenario();
    await app.json('/api/v1/spot?compact=1');
    fake.set('crypto', { mode: 'malformed' });
    await sleep(PAST_TTL);
    const r = await app.json('/api/v1/spot?compact=1');
    expect(r.body.btc_usd).toBe(coins.bitcoin.usd);
    expect(r.body.groups.tokens.status).toBe('stale');
  });
});

describe('single-flight', () => {
  it('200 concurrent requests on a cold cache make one upstream call per feed', async () => {
    const { app, fake } = await scenario((f) => f.set('gold', { mode: 'ok', delayMs: 300 }), { CACHE_TTL_S: '30' });
    const results = await Promise.all(Array.from({ length: 200 }, () => app.json('/api/v1/spot?compact=1')));
    expect(results.every((r) => r.status === 200 && r.body.spot_usd_oz === gold.price)).toBe(true);
    expect(fake.calls.gold).toBe(1);
    expect(fake.calls.silver).toBe(1);
    expect(fake.calls.fx).toBe(1);
    expect(fake.calls.crypto).toBe(1);
  });

  it('a cold instance under a burst of 2,000 requests answers every one with the real price, from one gold call', async () => {
    // The boot-time fetch on, as `npm start` runs; a slow upstream and a timeout the burst's own
    // queueing could exceed if the process blamed the upstream for it. Each request has its own
    // throwaway parameter, so the response cache in front cannot absorb the burst. The long TTL keeps
    // a slow machine's burst within one lifetime of the price, so one call is the right count.
    const { app, fake } = await scenario((f) => f.set('gold', { mode: 'ok', delayMs: 300 }), {
      CACHE_TTL_S: '3600',
      UPSTREAM_TIMEOUT_MS: '2000',
      WARM_FEEDS: 'on',
      RESPONSE_CACHE: 'on',
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    try {
      const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => getJson(`${app.url}/api/v1/spot?compact=1&n=${i}`, agent)));
      const wrong = answers.filter((a) => a.status !== 200 || a.body.spot_usd_oz !== gold.price || a.body.data_state?.status !== 'fresh');
      expect(wrong.length, JSON.stringify(wrong.slice(0, 2))).toBe(0);
      expect(fake.calls.gold).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 180_000);
});

describe('after a failure', () => {
  it('one failure is retried by the next request; two in a row pause the upstream for the back-off', async () => {
    const { app, fake } = await scenario((f) => f.set('gold', { mode: 'status', status: 502 }), { CACHE_TTL_S: '30' });
    expect((await app.json('/api/v1/spot?compact=1')).status).toBe(503);
    expect(fake.calls.gold).toBe(1);
    // The upstream is back: the next request asks it at once instead of answering from the failure.
    fake.reset();
    const next = await app.json('/api/v1/spot?compact=1');
    expect(next.status).toBe(200);
    expect(next.body.data_state).toMatchObject({ status: 'fresh', source: 'upstream' });
    expect(fake.calls.gold).toBe(2);

    // A real outage: two failures in a row, then one call per back-off however many requests come.
    const { app: down, fake: f2 } = await scenario((f) => f.set('gold', { mode: 'status', status: 502 }), { CACHE_TTL_S: '30' });
    for (let i = 0; i < 10; i++) expect((await down.json('/api/v1/spot?compact=1')).status).toBe(503);
    expect(f2.calls.gold).toBe(2);
  });
});

/** GET through a bounded agent: 2,000 requests in flight at once, over at most 256 connections. */
function getJson(url: string, agent: http.Agent): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}
