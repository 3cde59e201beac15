import { describe, expect, it } from 'vitest';
import * as items from '@/app/api/v1/items/route';
import * as spot from '@/app/api/v1/spot/route';
import * as value from '@/app/api/v1/value/route';
import * as converter from '@/app/widgets/converter/route';
import { ErrorBody } from '@/lib/schemas/common';
import { Items, Value } from '@/lib/schemas/value';
import { G_PER_OZ, sleep, UNIT_GRAMS } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';
import { callRoute, onFakeUpstream } from '../../support/route-handlers';

// GET /api/v1/value and /api/v1/items in process (decisions §31): what metal people hold is worth at spot. Every expected
// figure is computed here from the fixtures' USD prices and FX rates, the unit and karat definitions and the coins' mint
// figures written in this file; every body is checked against the OpenAPI document.

const fx = fixture('er-api-latest-USD.json');
const USD = { gold: fixture('goldapi-price-XAU.json').price as number, silver: fixture('goldapi-price-XAG.json').price as number };

/**
 * The bullion coins of decisions §31 with the fine metal each mint states, in troy ounces (per coin), and its gross weight
 * in grams, written here from the specifications: a wrong figure in lib/data/bullion-coins.json fails against this table.
 */
const COINS = {
  krugerrand: { metal: 'gold', fine_oz: 1, gross_g: 33.93 },
  'american-gold-eagle': { metal: 'gold', fine_oz: 1, gross_g: 33.931 },
  'american-gold-buffalo': { metal: 'gold', fine_oz: 1, gross_g: 31.108 },
  'maple-leaf-gold': { metal: 'gold', fine_oz: 1, gross_g: 31.11 },
  'britannia-gold': { metal: 'gold', fine_oz: 1, gross_g: 31.21 },
  'philharmonic-gold': { metal: 'gold', fine_oz: 1, gross_g: 31.107 },
  'kangaroo-gold': { metal: 'gold', fine_oz: 1, gross_g: 31.112 },
  // 123.27447 grains of 11/12 fine gold (Coinage Act 1870/1971): 0.2354 troy oz, as the Royal Mint states it.
  sovereign: { metal: 'gold', fine_oz: 0.2354, gross_g: 7.98805 },
  'half-sovereign': { metal: 'gold', fine_oz: 0.1177, gross_g: 3.99403 },
  'american-silver-eagle': { metal: 'silver', fine_oz: 1, gross_g: 31.103 },
  'maple-leaf-silver': { metal: 'silver', fine_oz: 1, gross_g: 31.11 },
  'britannia-silver': { metal: 'silver', fine_oz: 1, gross_g: 31.21 },
  'philharmonic-silver': { metal: 'silver', fine_oz: 1, gross_g: 31.103 },
  // US coins of 1964 and before: 2.5 g, 6.25 g and 12.5 g of 900 fine silver; 1965–1970 halves 11.5 g, 400 fine overall.
  'us-90-dime': { metal: 'silver', fine_oz: (2.5 * 0.9) / G_PER_OZ, gross_g: 2.5 },
  'us-90-quarter': { metal: 'silver', fine_oz: (6.25 * 0.9) / G_PER_OZ, gross_g: 6.25 },
  'us-90-half-dollar': { metal: 'silver', fine_oz: (12.5 * 0.9) / G_PER_OZ, gross_g: 12.5 },
  'us-40-half-dollar': { metal: 'silver', fine_oz: (11.5 * 0.4) / G_PER_OZ, gross_g: 11.5 },
} as const;

/** Grams per unit, by definition. */
const GRAMS: Record<string, number> = UNIT_GRAMS;

/** Half away from zero, as the service rounds. */
const rounded = (v: number, dp: number) => (v < 0 ? -1 : 1) * (Math.round(Math.abs(v) * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp);
/** What `fineOz` troy ounces of `metal` are worth in `currency`, unrounded. */
const worth = (metal: 'gold' | 'silver', fineOz: number, currency: string) => fineOz * USD[metal] * fx.rates[currency];

const upstream = onFakeUpstream('value');

const call = callRoute;
const ask = (query: string) => call(value.GET, `/api/v1/value?${query}`);
const spotOf = (query: string) => call(spot.GET, `/api/v1/spot?compact=1&${query}`);

describe('value: never seen, as spot', () => {
  it('gold never seen and both its sources down: 503 unavailable with no figure, never cached', async () => {
    upstream().set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' }).set('silver', { mode: 'refuse' });
    const [r, s] = await Promise.all([ask('weight=1'), spotOf('')]);
    expect(s.status).toBe(503);
    expect(r.status).toBe(503);
    ErrorBody.parse(r.body);
    expect(r.body.data_state.status).toBe('unavailable');
    expect(r.body).not.toHaveProperty('melt_value');
    expect(r.headers.get('cache-control')).toBe('no-store');
    upstream().reset();
    await sleep(1200);
  });

  it('silver never seen while gold answers: silver (and a silver coin) 503, gold 200', async () => {
    upstream().set('silver', { mode: 'refuse' }).set('quotes:XAG', { mode: 'refuse' });
    const [silver, dime, gold] = await Promise.all([ask('metal=silver&weight=1'), ask('item=us-90-dime'), ask('weight=1')]);
    expect(silver.status).toBe(503);
    expect(silver.body.data_state.status).toBe('unavailable');
    expect(dime.status).toBe(503);
    expect(gold.status).toBe(200);
    upstream().reset();
    await sleep(1200);
  });
});

describe('value: a weight at a purity', () => {
  it('every karat: 12 g of gold in EUR is 12 × karat ÷ 24 grams fine at spot, with spot’s own price beside it', async () => {
    const s = await spotOf('currency=EUR&unit=gram');
    expect(s.body.spot_usd_oz).toBe(USD.gold);
    const asked = [24, 22, 21, 18, 14, 10, 9].flatMap((k) => [`${k}`, `${k}k`].map((karat) => [k, karat] as const));
    const answers = await Promise.all(asked.map(([, karat]) => ask(`weight=12&karat=${karat}&currency=EUR`)));
    for (const [i, [k, karat]] of asked.entries()) {
      const r = answers[i];
      expect(r.status, karat).toBe(200);
      Value.parse(r.body);
      const fineG = (12 * k) / 24;
      expect(r.body, karat).toMatchObject({
        metal: 'gold',
        currency: 'EUR',
        weight: { value: 12, unit: 'gram' },
        fineness: rounded(k / 24, 6),
        fine_weight: { g: rounded(fineG, 4), oz: rounded(fineG / G_PER_OZ, 6) },
        melt_value: rounded(worth('gold', fineG / G_PER_OZ, 'EUR'), 2),
        price: { value: s.body.xau.price, unit: 'gram' },
        data_state: { status: 'fresh' },
      });
      expect(r.body.quote).toBeUndefined();
      expect(r.body.item).toBeUndefined();
    }
  });

  it('fineness as a fraction or in parts per thousand is the same purity, for every metal', async () => {
    for (const [metal, forms, share] of [
      ['silver', ['0.925', '925', '925.0'], 0.925],
      ['silver', ['0.958', '958'], 0.958],
      ['gold', ['0.9999', '999.9'], 0.9999],
      ['gold', ['0.375', '375'], 0.375],
      ['platinum', ['0.9995', '999.5'], 0.9995],
      ['palladium', ['0.95', '950'], 0.95],
      ['gold', ['1', '1000'], 1],
    ] as const) {
      const answers = await Promise.all(forms.map((f) => ask(`metal=${metal}&weight=3&unit=oz&fineness=${f}&currency=INR`)));
      const s = await spotOf('currency=INR');
      const usd = s.body[metal === 'gold' ? 'spot_usd_oz' : `${metal}_usd_oz`];
      expect(usd, metal).toBeGreaterThan(0);
      for (const [i, r] of answers.entries()) {
        const f = `${metal} ${forms[i]}`;
        expect(r.status, f).toBe(200);
        expect(r.body.fineness, f).toBe(share);
        expect(r.body.fine_weight, f).toEqual({ g: rounded(3 * G_PER_OZ * share, 4), oz: rounded(3 * share, 6) });
        expect(r.body.melt_value, f).toBe(rounded(3 * share * usd * fx.rates.INR, 2));
        expect(r.body.data_state.status, f).toBe(s.body.groups[metal].status);
      }
    }
    // No purity is pure: the same as fineness 1.
    const [plain, pure] = await Promise.all([ask('weight=2&unit=oz'), ask('weight=2&unit=oz&fineness=1')]);
    expect(plain.body.melt_value).toBe(pure.body.melt_value);
    expect(plain.body.fineness).toBe(1);
  });

  it('one unit of pure gold is spot’s own figure to the digit, in every unit of the list', async () => {
    const answers = await Promise.all(
      Object.keys(GRAMS).map((unit) => Promise.all([ask(`weight=1&unit=${unit}&currency=VND`), spotOf(`currency=VND&unit=${unit}`)])),
    );
    for (const [i, [unit, grams]] of Object.entries(GRAMS).entries()) {
      const [r, s] = answers[i];
      expect(r.status, unit).toBe(200);
      // Spot's price per gram and per grain has 4 decimals, the value 2: the same exact figure, rounded to 2. A kilogram is
      // 32.1507466 troy ounces (decisions §3).
      const ounces = unit === 'kg' ? 32.1507466 : grams / G_PER_OZ;
      const exact = USD.gold * fx.rates.VND * ounces;
      expect(r.body.melt_value, unit).toBe(rounded(exact, 2));
      if (!['gram', 'grain'].includes(unit)) expect(r.body.melt_value, unit).toBe(s.body.xau.price);
      expect(r.body.price, unit).toEqual({ value: s.body.xau.price, unit: s.body.xau.unit });
      expect(r.body.weight, unit).toEqual({ value: 1, unit: s.body.xau.unit });
    }
  });
});

describe('value: the coins', () => {
  it('/api/v1/items lists every coin of decisions §31 with the fine metal its mint states and a source URL', async () => {
    const r = await call(items.GET, '/api/v1/items');
    expect(r.status).toBe(200);
    Items.parse(r.body);
    expect(r.body.data_state).toMatchObject({ status: 'fresh', source: 'snapshot' });
    expect(r.headers.get('cache-control')).toBe('public, max-age=1');
    const byId = new Map(r.body.items.map((i: { id: string }) => [i.id, i]));
    for (const [id, coin] of Object.entries(COINS)) {
      const item = byId.get(id) as Record<string, unknown> | undefined;
      expect(item, id).toBeDefined();
      expect(item!.metal, id).toBe(coin.metal);
      expect(item!.gross_g, id).toBe(coin.gross_g);
      expect(item!.fine_oz as number, id).toBeCloseTo(coin.fine_oz, 6);
      // The grams and the ounces say the same, and the alloy holds them (within the mints' remedy).
      expect(Math.abs((item!.fine_g as number) / G_PER_OZ - (item!.fine_oz as number)), id).toBeLessThan(0.00005);
      expect(Math.abs(((item!.gross_g as number) * (item!.fineness as number)) / (item!.fine_g as number) - 1), id).toBeLessThan(0.005);
      expect(item!.source, id).toMatch(/^https:\/\/www\.[a-z.]+\/\S+$/);
    }
  });

  it('every coin, one and several: the mint’s fine ounces × spot × the rate, its gross weight in the unit asked', async () => {
    for (const [id, coin] of Object.entries(COINS)) {
      for (const [qty, currency, unit] of [
        [1, 'ZAR', 'gram'],
        [10, 'USD', 'oz'],
      ] as const) {
        const q = `item=${id}${qty === 1 ? '' : `&qty=${qty}`}&currency=${currency}&unit=${unit}`;
        const r = await ask(q);
        expect(r.status, q).toBe(200);
        Value.parse(r.body);
        expect(r.body.metal, q).toBe(coin.metal);
        expect(r.body.item.id, q).toBe(id);
        expect(r.body.qty, q).toBe(qty);
        expect(r.body.melt_value, q).toBe(rounded(worth(coin.metal, coin.fine_oz * qty, currency), 2));
        expect(r.body.fine_weight.oz, q).toBeCloseTo(coin.fine_oz * qty, 5);
        expect(r.body.weight, q).toEqual({ value: rounded((coin.gross_g * qty) / GRAMS[unit], 6), unit: unit === 'oz' ? 'troy_oz' : unit });
      }
    }
    // A Gold Eagle holds one troy ounce of gold: not 33.931 g × 0.9167.
    const eagle = await ask('item=american-gold-eagle');
    expect(eagle.body.fine_weight.oz).toBe(1);
    expect(eagle.body.melt_value).toBe(rounded(USD.gold, 2));
  });

  it('ten pre-1965 dimes are 22.5 g of fine silver', async () => {
    const r = await ask('item=us-90-dime&qty=10');
    expect(r.body.fine_weight.g).toBe(22.5);
    expect(r.body.melt_value).toBe(rounded(worth('silver', 22.5 / G_PER_OZ, 'USD'), 2));
  });
});

describe('value: a quote', () => {
  it('above the metal value: a positive premium; below: negative; both from the unrounded value', async () => {
    const melt = worth('gold', COINS.sovereign.fine_oz, 'EUR');
    for (const amount of [950, 1234.56, 400, Math.round(melt * 100) / 100]) {
      const r = await ask(`item=sovereign&currency=EUR&quote=${amount}`);
      expect(r.status).toBe(200);
      expect(r.body.quote).toEqual({
        amount,
        premium: rounded(amount - melt, 2),
        premium_pct: rounded((amount / melt - 1) * 100, 2),
      });
    }
    const above = await ask(`weight=10&karat=18&currency=EUR&quote=${Math.ceil(melt * 10)}`);
    expect(above.body.quote.premium).toBeGreaterThan(0);
    const below = await ask('weight=10&karat=18&currency=EUR&quote=1');
    expect(below.body.quote.premium).toBeLessThan(0);
    expect(below.body.quote.premium_pct).toBeGreaterThan(-100);
  });
});

describe('value: bad input is a 400 naming the valid values, never a 500', () => {
  it.each([
    ['', /^weight or item is required\. Valid values: weight .* or item /, ['weight', 'item']],
    ['weight=0', /^Invalid weight: 0\. Valid values: a number above 0/, undefined],
    ['weight=-3', /^Invalid weight: -3\. /, undefined],
    ['weight=abc', /^Invalid weight: abc\. /, undefined],
    ['weight=1e3', /^Invalid weight: 1e3\. /, undefined],
    ['weight=1000000001', /^Invalid weight: 1000000001\. Valid values: a number above 0, at most 1,000,000,000/, undefined],
    ['weight=1&item=krugerrand', /^weight and item both say what is valued: give one of them/, ['weight', 'item']],
    ['weight=5&metal=silver&karat=18', /^Invalid karat with metal silver: karats are purities of gold/, []],
    ['weight=5&karat=19', /^Invalid karat: 19\. Valid values: 24, 22, 21, 18, 14, 10, 9/, undefined],
    ['weight=5&karat=18&fineness=750', /^karat and fineness both give the purity/, ['karat', 'fineness']],
    [
      'weight=5&fineness=0',
      /^Invalid fineness: 0\. Valid values: a fraction above 0 up to 1 \(0\.925\) or parts per thousand above 1 up to 1000/,
      undefined,
    ],
    ['weight=5&fineness=1000.01', /^Invalid fineness: 1000\.01\. /, undefined],
    ['weight=5&fineness=-1', /^Invalid fineness: -1\. /, undefined],
    ['item=krugerrands', /^Unknown item: krugerrands\. Valid values: krugerrand, american-gold-eagle, /, Object.keys(COINS)],
    ['item=krugerrand&qty=0', /^Invalid qty: 0\. Valid values: a whole number from 1 to 1000000/, undefined],
    ['item=krugerrand&qty=1.5', /^Invalid qty: 1\.5\. /, undefined],
    ['item=krugerrand&qty=-2', /^Invalid qty: -2\. /, undefined],
    ['weight=1&qty=2', /^qty counts items: give item/, ['item']],
    ['item=krugerrand&karat=22', /^Invalid karat with item krugerrand: an item's purity is its mint's/, []],
    ['item=sovereign&fineness=0.9167', /^Invalid fineness with item sovereign/, []],
    ['item=krugerrand&metal=silver', /^Invalid metal with item krugerrand: it is gold\. Valid values: gold/, ['gold']],
    ['item=krugerrand&quote=0', /^Invalid quote: 0\. Valid values: a number above 0/, undefined],
    ['weight=1&quote=-5', /^Invalid quote: -5\. /, undefined],
    [
      'weight=1&unit=stone',
      /^Unsupported unit: stone\. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain$/,
      undefined,
    ],
    [
      'weight=1&metal=copper',
      /^Invalid metal: copper\. Valid values: gold, silver, platinum, palladium$/,
      ['gold', 'silver', 'platinum', 'palladium'],
    ],
    ['weight=1&weight=2', /^Parameter weight given more than once$/, undefined],
  ] as const)('%s', async (q, message, valid) => {
    const r = await ask(q);
    expect(r.status).toBe(400);
    ErrorBody.parse(r.body);
    expect(r.body.error).toMatch(message);
    if (valid) expect(r.body.valid).toEqual(valid);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('an unknown currency is spot’s 400 with every supported code', async () => {
    const r = await ask('weight=1&currency=XYZ');
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Unsupported currency: XYZ');
    expect([...r.body.supported].sort()).toEqual(Object.keys(fx.rates).sort());
  });
});

describe('the converter widget: the same metal value, in words that say what it is', () => {
  it('a weight at a fineness or a karat, rendered on the server, is /api/v1/value’s figure, with the note that it is not a shop’s price', async () => {
    for (const [widget, api] of [
      ['metal=silver&fineness=0.925&unit=oz', 'metal=silver&fineness=925&unit=oz&weight=3'],
      ['metal=platinum&fineness=950&unit=gram', 'metal=platinum&fineness=0.95&unit=gram&weight=3'],
      ['karat=18&unit=tola', 'karat=18&unit=tola&weight=3'],
      ['fineness=999.9&unit=luong', 'fineness=999.9&unit=luong&weight=3'],
    ] as const) {
      const res = await converter.GET(new Request(`http://t/widgets/converter?${widget}&amount=3&direction=gold-to-money&currency=USD&locale=en-US`));
      expect(res.status, widget).toBe(200);
      const page = await res.text();
      const result = page.match(/<output [^>]*>([^<]*)<\/output>/)![1];
      const r = await ask(`${api}&currency=USD`);
      expect(result, widget).toMatch(/^Metal value of 3\.0000 /);
      expect(result, widget).toContain(`: $${r.body.melt_value.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      expect(page, widget).toContain('not a shop’s price: dealers and jewellers sell above it and buy below it');
      expect(page, widget).not.toMatch(/ buys | is worth /);
    }
  });
});

describe('value: the REST route’s manners', () => {
  it('cached as spot, CORS open, HEAD without a body, OPTIONS the preflight, other methods 405 JSON', async () => {
    const [r, s] = await Promise.all([ask('weight=1&unit=oz'), spotOf('')]);
    for (const h of ['cache-control', 'cdn-cache-control', 'content-type', 'access-control-allow-origin'])
      expect(r.headers.get(h), h).toBe(s.headers.get(h));
    expect(r.headers.get('etag')).toMatch(/^W\//);
    const head = await value.GET(new Request('http://t/api/v1/value?weight=1', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const pre = await value.OPTIONS(new Request('http://t/api/v1/value', { method: 'OPTIONS' }));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    for (const handler of [value.POST, value.PUT, value.PATCH, value.DELETE, items.POST, items.DELETE]) {
      const res = await call(handler, '/api/v1/value', { method: 'POST', body: '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(res.body).toMatchObject({ error: 'Method not allowed', data_state: { status: expect.any(String) } });
    }
  });
});

describe('value: stale, as spot', () => {
  it('upstream down after a real price: 200 stale, valued at the last real price spot serves', async () => {
    const fresh = await ask('weight=1&unit=oz&currency=EUR');
    expect(fresh.body.data_state.status).toBe('fresh');
    upstream().set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' });
    await expect
      .poll(async () => (await ask('weight=1&unit=oz&currency=EUR')).body.data_state.status, { timeout: 30_000, interval: 300 })
      .toBe('stale');
    const [r, s] = await Promise.all([ask('weight=1&unit=oz&currency=EUR'), spotOf('currency=EUR')]);
    expect(r.status).toBe(200);
    expect(s.body.data_state.status).toBe('stale');
    expect(r.body.data_state.status).toBe('stale');
    expect(r.body.data_state.as_of).toBe(s.body.data_state.as_of);
    // The last real price, never a made-up one: the one spot serves stale, at the rate spot uses.
    expect(r.body.melt_value).toBe(rounded(s.body.spot_usd_oz * s.body.fx_rate, 2));
    expect(r.body.melt_value).toBe(s.body.xau.price);
    upstream().reset();
  });
});
