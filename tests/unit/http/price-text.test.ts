import { describe, expect, it } from 'vitest';
import * as priceTxt from '@/app/api/v1/price.txt/route';
import * as spot from '@/app/api/v1/spot/route';
import { G_PER_OZ, sleep } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';
import { onFakeUpstream } from '../../support/route-handlers';

// GET /api/v1/price.txt in process, beside spot: one number as text, spot's own figure, its state in headers.
// Every upstream is the fake (recorded real bodies); the store is a fresh embedded one (tests/support/route-handlers.ts).

const fx = fixture('er-api-latest-USD.json');
const goldUsd: number = fixture('goldapi-price-XAU.json').price;
const silverUsd: number = fixture('goldapi-price-XAG.json').price;

const upstream = onFakeUpstream('price-txt');

const TEXT = 'text/plain; charset=utf-8';

async function text(query = '', init?: RequestInit) {
  const res = await priceTxt.GET(new Request(`http://t/api/v1/price.txt${query}`, init));
  return { status: res.status, body: await res.text(), headers: res.headers };
}

async function spotJson(query: string) {
  const res = await spot.GET(new Request(`http://t/api/v1/spot${query}`));
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** price.txt and spot asked at the same moment. */
const both = (txtQuery: string, spotQuery: string) => Promise.all([text(txtQuery), spotJson(spotQuery)]);

/** What a text answer always carries. */
function expectTextAnswer(r: Awaited<ReturnType<typeof text>>) {
  expect(r.headers.get('content-type')).toBe(TEXT);
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(r.headers.get('x-updated-at')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
}

/** One number and a newline, nothing else. */
const NUMBER_LINE = /^\d+(\.\d+)?\n$/;

describe('price.txt: never seen', () => {
  it('gold never seen and both its sources down: 503 with the text unavailable, never cached', async () => {
    // Silver too, so that it is still never seen in the next test (spot reads every metal).
    upstream().set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' }).set('silver', { mode: 'refuse' });
    const [r, s] = await both('', '');
    expect(s.status).toBe(503);
    expect(r.status).toBe(503);
    expect(r.body).toBe('unavailable\n');
    expectTextAnswer(r);
    expect(r.headers.get('x-data-state')).toBe('unavailable');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('etag')).toBeNull();
    upstream().reset();
    // Past the pause before a failed upstream is asked again.
    await sleep(1200);
  });

  it('a metal never seen is unavailable on its own: silver 503 while gold answers', async () => {
    upstream().set('silver', { mode: 'refuse' }).set('quotes:XAG', { mode: 'refuse' });
    const [silver, gold, s] = await Promise.all([text('?metal=silver'), text('?metal=gold'), spotJson('?compact=1')]);
    expect(s.status).toBe(200);
    expect(s.body.silver_usd_oz).toBeNull();
    expect(s.body.groups.silver.status).toBe('unavailable');
    expect(silver.status).toBe(503);
    expect(silver.body).toBe('unavailable\n');
    expect(silver.headers.get('x-data-state')).toBe('unavailable');
    expect(gold.status).toBe(200);
    expect(gold.body).toBe(`${s.body.xau.price}\n`);
    upstream().reset();
    await sleep(1200);
  });
});

describe('price.txt: spot’s figure', () => {
  it('gold in any currency, unit and karat is exactly the figure spot answers at the same time', async () => {
    for (const [q, field] of [
      ['', 'price'],
      ['currency=EUR&unit=gram', 'price'],
      ['currency=INR&unit=tola', 'price'],
      ['currency=THB&unit=baht', 'price'],
      ['currency=jpy&unit=KG', 'price'],
      ['currency=EUR&unit=gram&karat=18', '18k'],
      ['currency=INR&unit=tola&karat=22k', '22k'],
      ['currency=THB&unit=baht&karat=9', '9k'],
    ] as const) {
      const [r, s] = await both(`?${q}`, `?compact=1&${q.replace(/&?karat=\w+/, '')}`);
      expect(s.status, q).toBe(200);
      expect(r.status, q).toBe(200);
      expectTextAnswer(r);
      expect(r.body, q).toMatch(NUMBER_LINE);
      const figure = field === 'price' ? s.body.xau.price : s.body.karats[field];
      expect(r.body, q).toBe(`${figure}\n`);
      expect(r.headers.get('x-data-state'), q).toBe(s.body.data_state.status);
      // Spot's caching, to the header.
      expect(r.headers.get('cache-control'), q).toBe(s.headers.get('cache-control'));
      expect(r.headers.get('cdn-cache-control'), q).toBe(s.headers.get('cdn-cache-control'));
      expect(r.headers.get('etag'), q).toMatch(/^W\/"/);
      expect(r.headers.get('last-modified'), q).toBeTruthy();
    }
  });

  it('metal=gold is the default; the other metals are their spot price in the currency and unit asked, rounded as spot rounds', async () => {
    const [plain, gold] = await Promise.all([text(''), text('?metal=GOLD')]);
    expect(gold.body).toBe(plain.body);
    for (const [metal, usdField] of [
      ['silver', 'silver_usd_oz'],
      ['platinum', 'platinum_usd_oz'],
      ['palladium', 'palladium_usd_oz'],
    ] as const) {
      for (const [currency, unit, grams, decimals] of [
        ['USD', 'oz', G_PER_OZ, 2],
        ['EUR', 'gram', 1, 4],
        ['INR', 'tola', 11.6638038, 2],
      ] as const) {
        const q = `metal=${metal}&currency=${currency}&unit=${unit}`;
        const [r, s] = await both(`?${q}`, `?compact=1&currency=${currency}`);
        expect(r.status, q).toBe(200);
        expect(r.body, q).toMatch(NUMBER_LINE);
        expect(r.headers.get('x-data-state'), q).toBe(s.body.groups[metal].status);
        // Computed here from spot's own USD price and FX rate, with the constants written out in the test.
        const exact = ((s.body[usdField] * s.body.fx_rate) / G_PER_OZ) * grams;
        expect(Number(r.body), q).toBe(Math.round(exact * 10 ** decimals) / 10 ** decimals);
        expect(s.body.fx_rate, q).toBe(fx.rates[currency]);
      }
    }
  });

  it('ignores unknown parameters: a cache-buster passes', async () => {
    const [plain, busted] = await Promise.all([text('?currency=EUR'), text('?currency=EUR&_=123&foo=bar')]);
    expect(busted.status).toBe(200);
    expect(busted.body).toBe(plain.body);
  });

  it('HEAD answers the GET headers without a body', async () => {
    const [get, head] = await Promise.all([text('?unit=gram'), text('?unit=gram', { method: 'HEAD' })]);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    for (const h of ['content-type', 'cache-control', 'cdn-cache-control', 'etag', 'x-data-state'])
      expect(head.headers.get(h), h).toBe(get.headers.get(h));
  });

  it('revalidates: If-None-Match with the ETag is a 304 without a body, with the same caching and state headers', async () => {
    const first = await text('?currency=EUR&unit=gram');
    const etag = first.headers.get('etag')!;
    const again = await text('?currency=EUR&unit=gram', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    expect(again.headers.get('x-data-state')).toBe(first.headers.get('x-data-state'));
    // Another figure is another answer.
    expect((await text('?currency=USD&unit=gram', { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('OPTIONS is the CORS preflight; other methods are the JSON 405 of every REST path', async () => {
    const pre = await priceTxt.OPTIONS(
      new Request('http://t/api/v1/price.txt', { method: 'OPTIONS', headers: { 'access-control-request-headers': 'x-a' } }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toBe('x-a');
    const res = await priceTxt.POST(new Request('http://t/api/v1/price.txt', { method: 'POST', body: '{}' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ error: 'Method not allowed', data_state: { status: expect.any(String) } });
  });
});

describe('price.txt: bad input', () => {
  it('is a 400 of one line of text naming the valid values, never cached', async () => {
    for (const [q, line] of [
      ['metal=copper', /^Invalid metal: copper\. Valid values: gold, silver, platinum, palladium\n$/],
      ['unit=stone', /^Unsupported unit: stone\. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain\n$/],
      ['karat=19', /^Invalid karat: 19\. Valid values: 24, 22, 21, 18, 14, 10, 9 /],
      ['metal=silver&karat=18', /^Invalid karat with metal silver: .*Valid values: none with silver .* 24, 22, 21, 18, 14, 10, 9\n$/],
      ['currency=XYZ', /^Unsupported currency: XYZ\. Valid values: AED, .*\bEUR, .*\bUSD\b.*\n$/],
      ['unit=oz&unit=gram', /^Parameter unit given more than once\n$/],
      ['metal=%3Cb%3E%0Ax', /^Invalid metal: <b> x\. Valid values: /],
    ] as const) {
      const r = await text(`?${q}`);
      expect(r.status, q).toBe(400);
      expectTextAnswer(r);
      expect(r.headers.get('cache-control'), q).toBe('no-store');
      expect(r.body, q).toMatch(line);
      expect(r.body.split('\n'), q).toHaveLength(2);
      expect(r.headers.get('x-data-state'), q).toBeTruthy();
    }
    const currencies = (await text('?currency=XYZ')).body
      .replace(/^.*Valid values: /, '')
      .trim()
      .split(', ');
    expect(currencies.sort()).toEqual(Object.keys(fx.rates).sort());
  });

  it('a query string over 2048 characters is a 414 of one line of text', async () => {
    const r = await text(`?pad=${'a'.repeat(2048)}`);
    expect(r.status).toBe(414);
    expectTextAnswer(r);
    expect(r.body).toMatch(/^Query string longer than 2048 characters\n$/);
  });
});

/**
 * The units of the world's markets (decisions §31), each by its definition in grams, written here, in its market's currency
 * and in VND, whose large rate makes a definition wrong in its sixth digit show in the price.
 */
const WORLD_UNITS = [
  { unit: 'chi', grams: 3.75, decimals: 2, currencies: ['VND', 'USD'] },
  { unit: 'luong', grams: 37.5, decimals: 2, currencies: ['VND', 'USD'] },
  { unit: 'don', grams: 3.75, decimals: 2, currencies: ['KRW', 'VND'] },
  { unit: 'pavan', grams: 8, decimals: 2, currencies: ['INR', 'VND'] },
  { unit: 'dwt', grams: 1.55517384, decimals: 2, currencies: ['USD', 'VND'] },
  { unit: 'grain', grams: 0.06479891, decimals: 4, currencies: ['USD', 'VND'] },
] as const;
/** Half away from zero, as spot rounds. */
const rounded = (v: number, dp: number) => Math.round(v * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp;

describe('price.txt and spot: the units of the world’s markets', () => {
  it('each new unit is its grams of the fixture’s price at the fixture’s rate, on spot (price and karats) and price.txt (gold, karat, silver at a fineness)', async () => {
    for (const { unit, grams, decimals, currency } of WORLD_UNITS.flatMap((u) => u.currencies.map((currency) => ({ ...u, currency })))) {
      const q = `currency=${currency}&unit=${unit}`;
      const [s, gold, k22, silver] = await Promise.all([
        spotJson(`?compact=1&${q}`),
        text(`?${q}`),
        text(`?${q}&karat=22`),
        text(`?metal=silver&${q}&fineness=925`),
      ]);
      expect(s.status, q).toBe(200);
      // The fixture's prices are the ones served, and the rate is the fixture's.
      expect(s.body.spot_usd_oz, q).toBe(goldUsd);
      expect(s.body.silver_usd_oz, q).toBe(silverUsd);
      const rate = fx.rates[currency];
      expect(s.body.fx_rate, q).toBe(rate);
      const goldPerUnit = ((goldUsd * rate) / G_PER_OZ) * grams;
      expect(s.body.xau, q).toEqual({ price: rounded(goldPerUnit, decimals), currency, unit });
      expect(s.body.karats['22k'], q).toBe(rounded((goldPerUnit * 22) / 24, decimals));
      expect(s.body.karats['9k'], q).toBe(rounded((goldPerUnit * 9) / 24, decimals));
      expect(gold.body, q).toBe(`${rounded(goldPerUnit, decimals)}\n`);
      expect(k22.body, q).toBe(`${s.body.karats['22k']}\n`);
      expect(silver.body, q).toBe(`${rounded(((silverUsd * rate) / G_PER_OZ) * grams * 0.925, decimals)}\n`);
    }
  });
});

describe('price.txt: fineness', () => {
  it('a fraction and parts per thousand are the same purity, for any metal, rounded as spot rounds', async () => {
    const rate = fx.rates.EUR;
    for (const [metal, usd] of [
      ['gold', goldUsd],
      ['silver', silverUsd],
    ] as const) {
      for (const [forms, share] of [
        [['0.925', '925', '925.0'], 0.925],
        [['0.9999', '999.9'], 0.9999],
        [['0.5', '.5', '500'], 0.5],
        [['1', '1000'], 1],
      ] as const) {
        const answers = await Promise.all(forms.map((f) => text(`?metal=${metal}&currency=EUR&unit=gram&fineness=${f}`)));
        for (const [i, r] of answers.entries()) {
          expect(r.status, `${metal} ${forms[i]}`).toBe(200);
          expect(r.body, `${metal} ${forms[i]}`).toBe(`${rounded(((usd * rate) / G_PER_OZ) * share, 4)}\n`);
        }
      }
    }
    // Fineness 1 is pure: spot's own figure.
    const [pure, s] = await both('?currency=EUR&unit=gram&fineness=1', '?compact=1&currency=EUR&unit=gram');
    expect(pure.body).toBe(`${s.body.xau.price}\n`);
  });

  it('out of (0, 1000], not a plain number, or given with a karat: a 400 of one line naming both forms', async () => {
    for (const [q, line] of [
      [
        'fineness=0',
        /^Invalid fineness: 0\. Valid values: a fraction above 0 up to 1 \(0\.925\) or parts per thousand above 1 up to 1000 \(925, 999\.9\); 1 is pure\n$/,
      ],
      ['fineness=-0.5', /^Invalid fineness: -0\.5\. Valid values: a fraction above 0 up to 1 .* parts per thousand /],
      ['fineness=1000.5', /^Invalid fineness: 1000\.5\. Valid values: /],
      ['fineness=abc', /^Invalid fineness: abc\. Valid values: /],
      ['fineness=1e3', /^Invalid fineness: 1e3\. Valid values: /],
      ['fineness=92.5%25', /^Invalid fineness: 92\.5%\. Valid values: /],
      ['karat=18&fineness=750', /^karat and fineness both give the purity: give one of them\. Valid values: karat or fineness, not both\n$/],
      ['metal=platinum&karat=18&fineness=950', /^Invalid karat with metal platinum: /],
    ] as const) {
      const r = await text(`?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toMatch(line);
      expect(r.body.split('\n'), q).toHaveLength(2);
    }
  });
});

describe('price.txt: stale', () => {
  it('upstream down after a real price: 200 with the last real number, X-Data-State stale, as spot says', async () => {
    const q = 'currency=EUR&unit=gram';
    const [fresh, before] = await both(`?${q}`, `?compact=1&${q}`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-data-state')).toBe('fresh');
    expect(fresh.body).toBe(`${before.body.xau.price}\n`);
    // The real prices held before the outage, one per source, in EUR per gram (computed here).
    const held = before.body.sources.map(
      (src: { price_usd_oz: number }) => `${Math.round(((src.price_usd_oz * before.body.fx_rate) / G_PER_OZ) * 1e4) / 1e4}\n`,
    );
    upstream().set('gold', { mode: 'refuse' }).set('quotes', { mode: 'refuse' });
    // The 1 s test TTL passes and both sources fail: the next answers are stale.
    await expect.poll(async () => (await text(`?${q}`)).headers.get('x-data-state'), { timeout: 30_000, interval: 300 }).toBe('stale');
    const [r, s] = await both(`?${q}`, `?compact=1&${q}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-data-state')).toBe('stale');
    expect(s.body.data_state.status).toBe('stale');
    expect(r.body).toBe(`${s.body.xau.price}\n`);
    // The last real price of one of the two sources (the newer one), never a made-up one.
    expect(held).toContain(r.body);
    expect(r.headers.get('cache-control')).toBe(s.headers.get('cache-control'));
    // Turning stale is a new answer: the fresh answer's ETag no longer holds.
    expect(r.headers.get('etag')).not.toBe(fresh.headers.get('etag'));
    upstream().reset();
  });
});
