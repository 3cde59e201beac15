import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@/lib/schemas/common';
import { Spot } from '@/lib/schemas/spot';
import goldStats from '@/lib/data/gold-stats.json';
import { App } from '../../support/app';
import { expectRounded, G_PER_OZ, OZ_PER_KG, OZ_PER_TONNE } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';

// The happy path and bad input, against one app on the recorded upstream responses.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const fx = fixture('er-api-latest-USD.json');
const coins = fixture('coingecko-simple-price.json');
const statistic = (id: string) => goldStats.figures.find((f) => f.id === id)!.value;

let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: fake.env() });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('spot: every field from the upstream inputs', () => {
  it('first answer comes from the upstream, the next from the cache', async () => {
    const first = await app.json('/api/v1/spot');
    expect(first.status).toBe(200);
    expect(first.body.data_state).toMatchObject({ status: 'fresh', source: 'upstream', as_of: new Date(gold.updatedAt).toISOString() });
    const second = await app.json('/api/v1/spot');
    expect(second.body.data_state.source).toBe('cache');
    expect(fake.calls.gold).toBe(1);
  });

  const cases: [string, string, 'oz' | 'gram' | 'kg'][] = [
    ['USD', 'USD', 'oz'],
    ['EUR', 'EUR', 'gram'],
    ['JPY', 'JPY', 'kg'],
    ['KWD', 'KWD', 'oz'],
    ['eur', 'EUR', 'kg'],
    ['gbp', 'GBP', 'gram'],
  ];
  for (const [asked, code, unit] of cases) {
    it(`xau.price in ${asked} per ${unit}`, async () => {
      const { status, body } = await app.json(`/api/v1/spot?currency=${asked}&unit=${unit}`);
      expect(status).toBe(200);
      Spot.parse(body);
      const rate = fx.rates[code];
      const perOz = gold.price * rate;
      const exact = unit === 'gram' ? perOz / G_PER_OZ : unit === 'kg' ? perOz * OZ_PER_KG : perOz;
      expectRounded(body.xau.price, exact, unit === 'gram' ? 4 : 2);
      expect(body.xau).toMatchObject({ currency: code, unit: unit === 'oz' ? 'troy_oz' : unit });
      expect(body.fx_rate).toBe(rate);
      expect(body.spot_usd_oz).toBe(gold.price);
    });
  }

  for (const [asked, code, unit] of cases) {
    it(`karats in ${asked} per ${unit}: spot × fx × unit × karat ÷ 24, rounded once`, async () => {
      const { body } = await app.json(`/api/v1/spot?currency=${asked}&unit=${unit}&compact=1`);
      const perOz = gold.price * fx.rates[code];
      const perUnit = unit === 'gram' ? perOz / G_PER_OZ : unit === 'kg' ? perOz * OZ_PER_KG : perOz;
      expect(Object.keys(body.karats)).toEqual(['24k', '22k', '21k', '18k', '14k', '10k', '9k']);
      for (const [key, value] of Object.entries(body.karats))
        expectRounded(value as number, (perUnit * parseInt(key, 10)) / 24, unit === 'gram' ? 4 : 2);
      expect(body.karats['24k']).toBe(body.xau.price);
    });
  }

  it('derived fields follow the documented formulas and rounding', async () => {
    const { body } = await app.json('/api/v1/spot');
    const spot = gold.price;
    const btc = coins.bitcoin.usd;
    const btcMcap = coins.bitcoin.usd_market_cap;
    const supply = statistic('above_ground_stock_total_end2025');
    const goldMcap = spot * supply * OZ_PER_TONNE;
    expectRounded(body.per_gram_usd, spot / G_PER_OZ, 4);
    expectRounded(body.per_kg_usd, spot * OZ_PER_KG, 2);
    expect(body.silver_usd_oz).toBe(silver.price);
    expectRounded(body.gold_silver_ratio, spot / silver.price, 2);
    expect(body.btc_usd).toBe(btc);
    expect(body.btc_market_cap_usd).toBe(btcMcap);
    expectRounded(body.btc_gold_oz, btc / spot, 4);
    expectRounded(body.btc_gold_kg, btc / (spot * OZ_PER_KG), 4);
    expectRounded(body.gold_market_cap_usd, goldMcap, 0);
    expectRounded(body.btc_vs_gold_mcap_pct, (btcMcap / goldMcap) * 100, 2);
    expectRounded(body.bitcoin_gold_parity_usd, goldMcap / (btcMcap / btc), 2);
    // This recorded body has Bitcoin only: the token fields are absent, not invented.
    expect(body.paxg_usd).toBeNull();
    expect(body.xaut_usd).toBeNull();
    expect(body.paxg_gold_ratio).toBeNull();
    expect(body.xaut_gold_ratio).toBeNull();
  });

  it('statistics come from the bundled sources', async () => {
    const { body } = await app.json('/api/v1/spot');
    expect(body.gold_supply_tonnes).toBe(statistic('above_ground_stock_total_end2025'));
    expect(body.annual_production_tonnes).toBe(statistic('mine_production_2025'));
    expect(body.underground_reserves_tonnes).toBe(statistic('usgs_world_reserves_2025'));
    expect(body.cb_reserves_tonnes).toBe(statistic('world_official_gold_holdings_wgc_aug2026'));
    expect(body.cb_net_purchases_tonnes).toBe(statistic('central_bank_net_purchases_2025'));
    expect(body.cb_top_holder_usa_tonnes).toBeCloseTo(8133.46, 2);
    expectRounded(body.cb_reserves_pct_supply, (body.cb_reserves_tonnes / body.gold_supply_tonnes) * 100, 2);
    expectRounded(body.cb_share_global_reserves_pct, statistic('gold_share_of_world_reserves_wgc_aug2026') * 100, 2);
    expect(body.stats_as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('states, sources and timestamps', async () => {
    const before = Date.now();
    const { body } = await app.json('/api/v1/spot');
    expect(body.stale).toBe(false);
    expect(body.fx_stale).toBe(false);
    expect(body.price_as_of).toBe(body.updated_at);
    expect(Math.abs(Date.parse(body.updated_at) - before)).toBeLessThan(5000);
    expect(body.data_state.age_seconds).toBe(Math.floor((Date.parse(body.updated_at) - Date.parse(gold.updatedAt)) / 1000));
    expect(body.groups.gold).toEqual(body.data_state);
    expect(body.groups.silver).toMatchObject({ status: 'fresh', as_of: new Date(silver.updatedAt).toISOString() });
    expect(body.groups.fx).toMatchObject({ status: 'fresh', as_of: new Date(fx.time_last_update_unix * 1000).toISOString() });
    expect(body.groups.tokens).toMatchObject({ status: 'fresh', as_of: new Date(coins.bitcoin.last_updated_at * 1000).toISOString() });
    expect(body).toMatchObject({
      price_source: 'gold-api.com',
      silver_source: 'gold-api.com',
      fx_source: 'open.er-api.com',
      token_source: 'coingecko.com',
    });
    expect(body.docs).toBe(`${app.url}/docs`);
  });

  it('fx_rates holds the whole live table unless compact=1', async () => {
    const full = await app.json('/api/v1/spot');
    expect(full.body.fx_rates).toEqual(fx.rates);
    expect(Object.keys(full.body.fx_rates).length).toBeGreaterThanOrEqual(160);
    const compact = await app.get('/api/v1/spot?compact=1');
    const compactText = await compact.text();
    expect(JSON.parse(compactText).fx_rates).toBeUndefined();
    const fullText = JSON.stringify(full.body);
    // What compact saves is the table itself: the rest of the answer is the same size either way.
    expect(fullText.length - compactText.length).toBeGreaterThanOrEqual(JSON.stringify(fx.rates).length);
    expect(compactText.length).toBeLessThan(fullText.length * 0.6);
  });

  it('debug=1 appends cache ages', async () => {
    const { body } = await app.json('/api/v1/spot?debug=1');
    expect(body.debug).toMatchObject({ store: 'embedded' });
    for (const k of ['uptime_s', 'price_age_s', 'fx_cache_age_s', 'token_cache_age_s']) expect(Number.isInteger(body.debug[k])).toBe(true);
    const plain = await app.json('/api/v1/spot');
    expect(plain.body.debug).toBeUndefined();
  });

  it('a second token body: PAXG ratio from the recorded price', async () => {
    // A fresh app so the token cache is cold; this recorded body has Bitcoin without market cap and PAXG.
    const other = await FakeUpstream.start();
    other.set('crypto', { mode: 'ok', fixture: 'coingecko-simple-price-bitcoin-paxg.json' });
    const app2 = await App.start({ env: other.env() });
    try {
      const paxg = fixture('coingecko-simple-price-bitcoin-paxg.json');
      const { body } = await app2.json('/api/v1/spot');
      expect(body.paxg_usd).toBe(paxg['pax-gold'].usd);
      expectRounded(body.paxg_gold_ratio, paxg['pax-gold'].usd / gold.price, 4);
      expect(body.btc_usd).toBe(paxg.bitcoin.usd);
      expect(body.btc_market_cap_usd).toBeNull();
      expect(body.btc_vs_gold_mcap_pct).toBeNull();
      expect(body.bitcoin_gold_parity_usd).toBeNull();
      expect(body.xaut_usd).toBeNull();
    } finally {
      await app2.stop();
      await other.close();
    }
  });
});

describe('spot: headers and compression', () => {
  it('carries the documented headers', async () => {
    const res = await app.get('/api/v1/spot?compact=1');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('cdn-cache-control')).toBe('max-age=30, stale-while-revalidate=30');
  });

  it('brotli when accepted, else gzip, else identity', async () => {
    const enc = async (accept?: string) => {
      const res = await app.get('/api/v1/spot', { headers: accept ? { 'accept-encoding': accept } : {} });
      await res.arrayBuffer();
      return res.headers.get('content-encoding');
    };
    expect(await enc('br, gzip')).toBe('br');
    expect(await enc('gzip, deflate, br')).toBe('br');
    expect(await enc('gzip')).toBe('gzip');
    expect(await enc('br;q=0.5, gzip')).toBe('gzip');
    expect(await enc('identity')).toBeNull();
  });

  it('a compressed body decodes to the same JSON', async () => {
    // fetch decodes Content-Encoding itself: a wrong header would show up as a parse failure here.
    const res = await app.get('/api/v1/spot', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    Spot.parse(await res.json());
  });
});

describe('spot: bad input is a clear 4xx, never a 500', () => {
  const expectError = (r: { status: number; body: any; headers: Headers }, status: number) => {
    expect(r.status).toBe(status);
    ErrorBody.parse(r.body);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  };

  it('unknown currency lists every supported code', async () => {
    const r = await app.json('/api/v1/spot?currency=XYZ');
    expectError(r, 400);
    expect(r.body.error).toBe('Unsupported currency: XYZ');
    expect([...r.body.supported].sort()).toEqual(Object.keys(fx.rates).sort());
    expect(r.body.data_state.status).toBe('fresh');
  });

  for (const bad of ['../../x', '%3Cscript%3E', 'EURO', 'E', '12$', 'usd%00']) {
    it(`currency=${bad}`, async () => {
      const r = await app.json(`/api/v1/spot?currency=${bad}`);
      expectError(r, 400);
      expect(r.body.error).toMatch(/^Unsupported currency: /);
    });
  }

  it('bad unit', async () => {
    const r = await app.json('/api/v1/spot?unit=stone');
    expectError(r, 400);
    expect(r.body.error).toBe('Unsupported unit: stone. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain');
  });

  it('compact and debug take only 1', async () => {
    expectError(await app.json('/api/v1/spot?compact=yes'), 400);
    expectError(await app.json('/api/v1/spot?debug=true'), 400);
  });

  it('repeated parameters are refused', async () => {
    const r = await app.json('/api/v1/spot?currency=EUR&currency=USD');
    expectError(r, 400);
    expect(r.body.error).toMatch(/currency/);
  });

  it('unknown parameters are ignored (cache busting)', async () => {
    const r = await app.json(`/api/v1/spot?compact=1&_=${Date.now()}&x[]=1`);
    expect(r.status).toBe(200);
  });

  it('a long query string is refused with JSON', async () => {
    const r = await app.json(`/api/v1/spot?pad=${'a'.repeat(3000)}`);
    expectError(r, 414);
  });

  it('a query beyond the server header limit is a 4xx, not a 500', async () => {
    const res = await app.get(`/api/v1/spot?pad=${'a'.repeat(20_000)}`);
    await res.arrayBuffer();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`${method} is 405 with Allow`, async () => {
      const r = await app.json('/api/v1/spot', { method, body: method === 'DELETE' ? undefined : '{}' });
      expectError(r, 405);
      expect(r.body.error).toBe('Method not allowed');
      expect(r.headers.get('allow')).toContain('GET');
    });
  }

  it('OPTIONS is a CORS preflight', async () => {
    const res = await app.get('/api/v1/spot', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-custom' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-custom');
  });

  it('HEAD answers like GET without a body', async () => {
    const res = await app.get('/api/v1/spot', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});
