import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_STRINGS, STRINGS } from '@/widgets/i18n';
import { App } from '../../support/app';
import { dataDirWithBars } from '../../support/bars';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';
import { realChartHandler } from '../../support/yahoo';

// The price pages (decisions §27) as the built app serves them: every figure a page shows is the API's answer
// fetched at the same time (read from the figures' `data-v`, the number behind each text), the visitor's choice
// picks the page behind `/` and `/{metal}`, unknown addresses are the site's 404, and the pages, their image, the
// sitemap and robots.txt answer as a crawler and a CDN need. One app: a trading Thursday whose previous session has
// a real imported gold bar, so gold's change is known.

/** Grams per unit and decimals, as the spec writes them (decisions §3, §17, §31): the test's own arithmetic. */
const GRAMS = { oz: 31.1034768, gram: 1, kg: 1000, tola: 11.6638038, tael: 37.429, baht: 15.244, luong: 37.5, grain: 0.06479891 } as const;
const DECIMALS = { oz: 2, gram: 4, kg: 2, tola: 2, tael: 2, baht: 2, luong: 2, grain: 4 } as const;
type U = keyof typeof GRAMS;
const roundTo = (n: number, dp: number) => Math.round(n * 10 ** dp) / 10 ** dp;
/**
 * USD per troy ounce in `currency` per `unit` at spot's rate, rounded as spot rounds a price in that unit: a kilogram is
 * 32.1507466 troy ounces (§3), which a price of hundreds of millions (won per kilogram) tells apart from 1000 ÷ 31.1034768.
 */
const inUnit = (usdOz: number, rate: number, unit: U) =>
  roundTo(unit === 'kg' ? usdOz * rate * 32.1507466 : ((usdOz * rate) / GRAMS.oz) * GRAMS[unit], DECIMALS[unit]);

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function raw(app: App, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}
const utf8 = (r: Raw) => Buffer.from(r.body, 'latin1').toString('utf8');

/** The number behind a marked figure (`data-f="name" … data-v="…"`); null when the page shows none. */
function figure(html: string, name: string): number | null {
  const m = new RegExp(`data-f="${name}" data-v="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no figure ${name}`);
  return m[1] === '' ? null : Number(m[1]);
}
/** Every marked figure of a page: its name, its number (null for none) and the words it shows. */
function figures(html: string): { name: string; v: number | null; text: string }[] {
  return [...html.matchAll(/data-f="([\w-]+)" data-v="([^"]*)"[^>]*>([^<]*)</g)].map((m) => ({
    name: m[1],
    v: m[2] === '' ? null : Number(m[2]),
    text: m[3].replace(/&amp;/g, '&'),
  }));
}
/** The pill's words and its class (`pill` only when the price is live). */
function pill(html: string): { text: string; className: string } {
  const m = /<span data-f="state" data-v="" class="(\w+)">([^<]*)</.exec(html);
  if (!m) throw new Error('no pill');
  return { className: m[1], text: m[2] };
}
/** The open.er-api.com table the fake serves: the rates every converted figure is checked with. */
const FX = fixture('er-api-latest-USD.json').rates as Record<string, number>;
/** A date as the English page writes it (medium, UTC). */
const enDay = (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  const dataDir = await dataDirWithBars(['2026-04-15']);
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')) }, dataDir });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

// First in the file, before anything reads the FX table: this app has never had one from the upstream.
describe('an exchange rate that is not live is not called live (decisions §33)', () => {
  it('FX never read: the bundled table, said with its date; USD is live; the upstream back, the rate is live again', async () => {
    fake.set('fx', { mode: 'refuse' });
    try {
      const [eur, usd, spot] = await Promise.all([
        raw(app, '/gold/eur/gram'),
        raw(app, '/gold/usd/oz'),
        app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1'),
      ]);
      // What spot says: the bundled snapshot, stale.
      expect(spot.body.fx_stale).toBe(true);
      expect(spot.body.groups.fx).toMatchObject({ status: 'stale', source: 'snapshot' });
      expect(spot.body.data_state.status).toBe('fresh');
      // The page says it: gold's price is live in dollars, the rate is the bundled table's, named by its date.
      expect(pill(utf8(eur))).toEqual({ className: 'badge', text: `live in US dollars · exchange rate of ${enDay(spot.body.groups.fx.as_of)}` });
      expect(figure(utf8(eur), 'price')).toBe(spot.body.xau.price);
      // In dollars no rate is needed: live.
      expect(pill(utf8(usd))).toEqual({ className: 'pill', text: 'live' });
    } finally {
      fake.set('fx', { mode: 'ok' });
    }
    await expect.poll(async () => (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body.fx_stale).toBe(false);
    expect(pill(utf8(await raw(app, '/gold/eur/gram')))).toEqual({ className: 'pill', text: 'live' });
  });
});

describe('every figure is the API’s answer (decisions §27)', () => {
  const PAGES: [metal: string, currency: string, unit: U][] = [
    ['gold', 'inr', 'tola'],
    ['gold', 'thb', 'baht'],
    ['gold', 'eur', 'gram'],
    ['silver', 'usd', 'oz'],
    // Units of the world's markets (decisions §31): the pages take every unit of the list.
    ['gold', 'vnd', 'luong'],
    ['silver', 'usd', 'grain'],
  ];
  for (const [metal, currency, unit] of PAGES) {
    it(`/${metal}/${currency}/${unit}: price, change, previous close, session, bid/ask, four metals, karats`, async () => {
      const [page, spot] = await Promise.all([
        raw(app, `/${metal}/${currency}/${unit}`),
        app.json(`/api/v1/spot?currency=${currency.toUpperCase()}&unit=${unit}&compact=1`),
      ]);
      expect(page.status).toBe(200);
      expect(spot.status).toBe(200);
      const html = utf8(page);
      const s = spot.body;
      const rate = s.fx_rate;
      const change = metal === 'gold' ? s.change : s.silver_change;
      const own = metal === 'gold' ? s.xau.price : inUnit(s.silver_usd_oz, rate, unit);
      expect(figure(html, 'price')).toBe(own);
      expect(figure(html, 'm-gold')).toBe(s.xau.price);
      expect(figure(html, 'm-silver')).toBe(inUnit(s.silver_usd_oz, rate, unit));
      expect(figure(html, 'm-platinum')).toBe(s.platinum_usd_oz === null ? null : inUnit(s.platinum_usd_oz, rate, unit));
      expect(figure(html, 'm-palladium')).toBe(s.palladium_usd_oz === null ? null : inUnit(s.palladium_usd_oz, rate, unit));
      expect(figure(html, 'mc-gold')).toBe(s.change.change_pct);
      // The change and previous close are spot's own (its daily bars), never the futures'.
      expect(figure(html, 'change')).toBe(change.change);
      expect(figure(html, 'prev')).toBe(change.previous_close);
      expect(figure(html, 'high')).toBe(change.high);
      expect(figure(html, 'low')).toBe(change.low);
      expect(html).toMatch(new RegExp(`data-f="change" data-v="[^"]*" data-pct="${change.change_pct ?? ''}"`));
      if (metal === 'gold') {
        // The imported bar makes the change known: a page that showed none would pass nothing here.
        expect(change.state).toBe('ok');
        expect(html).toContain(change.change > 0 ? '▲' : change.change < 0 ? '▼' : '▶');
        for (const [k, v] of Object.entries(s.karats)) expect(figure(html, `k-${k}`), k).toBe(v);
        expect(figure(html, 'bid')).toBe(s.bid_usd_oz === null ? null : inUnit(s.bid_usd_oz, rate, unit));
        expect(figure(html, 'ask')).toBe(s.ask_usd_oz === null ? null : inUnit(s.ask_usd_oz, rate, unit));
        expect(s.bid_usd_oz).not.toBeNull();
        if (unit === 'gram')
          for (const k of [24, 22, 18, 9])
            expect(figure(html, `t-${k}k`), `${k}k per 10 g`).toBe(roundTo(((s.spot_usd_oz * rate) / GRAMS.oz) * 10 * (k / 24), 2));
        else expect(html).not.toContain('data-f="t-24k"');
      } else expect(html).not.toContain('data-f="k-24k"');
      // What a reader and a search engine read: the h1 and the title name metal, currency and unit; the price is in the title.
      expect(h1(html)).toMatch(new RegExp(`${metal} price in ${currency.toUpperCase()} per `, 'i'));
      const title = /<title[^>]*>([^<]*)<\/title>/.exec(html)![1];
      expect(title).toContain(currency.toUpperCase());
      expect(title).toContain(/data-f="price" data-v="[^"]*"[^>]*>([^<]*)</.exec(html)![1]);
      expect(html).toMatch(/<meta name="description" content="[^"]*(Gold|Silver)[^"]*"/);
      expect(canonical(html)).toBe(`${app.url}/${metal}/${currency}/${unit}`);
      // The chart's container, for the chart module, with the page's choice.
      expect(html).toMatch(
        new RegExp(
          `<section id="chart" class="card pp-chart" data-metal="${metal}" data-currency="${currency.toUpperCase()}" data-unit="${unit}" data-lang="en"`,
        ),
      );
    });
  }

  it('the headline is spot’s figure to the last digit in JPY, KRW, EUR and INR, and every price on the page has spot’s decimals (§33)', async () => {
    const SYMBOL = { JPY: '¥', KRW: '₩', EUR: '€', INR: '₹' } as const;
    const PAGES: [currency: keyof typeof SYMBOL, unit: U][] = [
      ['JPY', 'gram'],
      ['KRW', 'kg'],
      ['EUR', 'gram'],
      ['INR', 'tola'],
      ['JPY', 'oz'],
    ];
    for (const [currency, unit] of PAGES) {
      const where = `${currency} ${unit}`;
      const [page, spot] = await Promise.all([
        raw(app, `/gold/${currency.toLowerCase()}/${unit}`),
        app.json(`/api/v1/spot?currency=${currency}&unit=${unit}&compact=1`),
      ]);
      const html = utf8(page);
      // The price from the served USD price and the fixture's rate, rounded as the spec says: the page's and spot's.
      expect(spot.body.fx_rate, where).toBe(FX[currency]);
      const expected = inUnit(spot.body.spot_usd_oz, FX[currency], unit);
      expect(spot.body.xau.price, where).toBe(expected);
      const headline = figures(html).find((f) => f.name === 'price')!;
      expect(headline.v, where).toBe(expected);
      // Written in the currency's sign with every decimal spot has (a yen per gram keeps its four).
      expect(headline.text.startsWith(SYMBOL[currency]), `${where}: ${headline.text}`).toBe(true);
      expect(headline.text.replace(/[^\d.]/g, ''), where).toBe(expected.toFixed(DECIMALS[unit]));
      // Every other price figure too: the four metals, the karats, the previous close, the session, bid and ask, the
      // change (its amount, the first number it writes); per 10 grams is a price of 2 decimals.
      const prices = figures(html).filter((f) => f.v !== null && /^(price|m-\w+|k-\d+k|t-\d+k|prev|high|low|bid|ask|change)$/.test(f.name));
      expect(prices.length, where).toBeGreaterThan(10);
      for (const f of prices) {
        const first = /[\d,]+(?:\.\d+)?/.exec(f.text)![0].replace(/,/g, '');
        expect(first, `${where} ${f.name}: ${f.text}`).toBe(Math.abs(f.v!).toFixed(f.name.startsWith('t-') ? 2 : DECIMALS[unit]));
      }
    }
  });

  it('the chart draws 1D at the rate spot uses now, in the page’s currency and unit, saying so; palladium’s MAX in them too (§33)', async () => {
    const [page, spot] = await Promise.all([raw(app, '/gold/eur/gram'), app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')]);
    const html = utf8(page);
    const section = /<section id="chart"[^>]*>/.exec(html)![0];
    // The rate the chart converts 1D at: spot's, which the page's script keeps (browser: price-pages.test.ts).
    expect(section).toContain(`data-fx-rate="${spot.body.fx_rate}"`);
    const plan = JSON.parse(
      /data-plan="([^"]*)"/
        .exec(section)![1]
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
    expect(plan.series['1d']).toMatchObject({
      url: '/api/v1/intraday?symbol=xau&hours=24',
      line: 'intraday',
      label: 'Spot, recorded every 2 minutes · EUR/g at the current exchange rate',
      currency: 'EUR',
      decimals: 4,
      atRateNow: { unit: 'gram' },
    });
    // Palladium has no monthly series: MAX is its daily spot bars, converted by history at each day's own rate.
    const pd = utf8(await raw(app, '/palladium/eur/gram'));
    const pdPlan = JSON.parse(
      /data-plan="([^"]*)"/
        .exec(pd)![1]
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
    expect(pdPlan.series.max).toMatchObject({ line: 'spot', label: 'Spot, daily closes · EUR/g', currency: 'EUR', decimals: 4 });
    const max = await app.json(pdPlan.series.max.url);
    expect(max.status).toBe(200);
    expect(max.body).toMatchObject({ series: 'spot', symbol: 'XPDUSD', currency: 'EUR', unit: 'gram' });
    // In dollars per ounce nothing is converted: 1D as recorded, and palladium's MAX the futures' daily bars since they began.
    const usd = utf8(await raw(app, '/palladium/usd/oz'));
    const usdPlan = JSON.parse(
      /data-plan="([^"]*)"/
        .exec(usd)![1]
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
    expect(usdPlan.series['1d'].atRateNow).toBeUndefined();
    expect(usdPlan.series.max.url).toBe('/api/v1/chart?symbol=palladium&range=max&interval=1d');
  });

  it('the value on a date is the history endpoint’s for that day, naming its series and its own date, with the change since', async () => {
    for (const [currency, unit] of [
      ['eur', 'gram'],
      ['usd', 'oz'],
    ] as const) {
      const [page, history, spot] = await Promise.all([
        raw(app, `/gold/${currency}/${unit}?date=2026-04-15`),
        app.json(`/api/v1/history?series=spot&symbol=xau&currency=${currency.toUpperCase()}&unit=${unit}&date=2026-04-15`),
        app.json(`/api/v1/spot?currency=${currency.toUpperCase()}&unit=${unit}&compact=1`),
      ]);
      expect(history.status).toBe(200);
      const html = utf8(page);
      const point = history.body.points[0];
      expect(html).toContain(`data-series="spot" data-d="${point.d}" data-v="${point.c}"`);
      expect(figure(html, 'since')).toBe(roundTo(spot.body.xau.price - point.c, DECIMALS[unit]));
    }
    // Before the spot bars, gold's value is the futures close of that day, named so.
    const [old, futures] = await Promise.all([raw(app, '/gold/usd/oz?date=2023-06-15'), app.json('/api/v1/history?date=2023-06-15')]);
    expect(futures.status).toBe(200);
    expect(utf8(old)).toContain(`data-series="futures" data-d="${futures.body.points[0].d}" data-v="${futures.body.points[0].c}"`);
    expect(utf8(old)).toContain('COMEX futures (not spot)');
  });
});

describe('what your metal is worth (decisions §31): the forms sent without script, every value /api/v1/value’s', () => {
  /** The words a marked element shows. */
  const said = (html: string, name: string) => {
    const m = new RegExp(`data-f="${name}"[^>]*>([^<]*)<`).exec(html);
    if (!m) throw new Error(`no ${name}`);
    return m[1].replace(/&amp;/g, '&');
  };
  /** The page answering a form, and value answering the same query, for the same price. */
  async function both(page: string, value: string) {
    const [res, v] = await Promise.all([raw(app, page), app.json(`/api/v1/value?${value}`)]);
    expect(res.status, page).toBe(200);
    expect(v.status, value).toBe(200);
    return { html: utf8(res), v: v.body };
  }

  it('a karat weight with a quote above, and coins with a count and a quote below: value’s figures, said in words', async () => {
    // A quote 10 % over value's own figure is above it; one half of it, below, whatever the fixtures' price.
    const base = (await app.json('/api/v1/value?weight=12&unit=gram&karat=14&currency=EUR')).body.melt_value;
    const high = Math.round(base * 1.1);
    const chain = await both(
      `/gold/eur/gram?weight=12&unit=gram&fineness=14k&quote=${high}`,
      `weight=12&unit=gram&karat=14&currency=EUR&quote=${high}`,
    );
    expect(figure(chain.html, 'worth')).toBe(chain.v.melt_value);
    expect(figure(chain.html, 'worth-quote')).toBe(chain.v.quote.premium_pct);
    expect(chain.v.quote.premium).toBeGreaterThan(0);
    const euros = (n: number, dp = 2) => `€${n.toLocaleString('en', { minimumFractionDigits: dp, maximumFractionDigits: dp })}`;
    expect(said(chain.html, 'worth')).toBe(`Metal value of 12 g of 14k gold: ${euros(chain.v.melt_value)}`);
    expect(said(chain.html, 'worth-quote')).toBe(
      `The price you were quoted, ${euros(high)}, is ${chain.v.quote.premium_pct.toFixed(2)}% above the metal’s value (${euros(chain.v.quote.premium)} more).`,
    );
    expect(said(chain.html, 'worth-fine')).toBe(
      `Fine metal: ${chain.v.fine_weight.g.toFixed(4)} g (${chain.v.fine_weight.oz.toFixed(6)} troy oz), at a spot price of ${euros(chain.v.price.value, 4)} per gram.`,
    );
    // The converter's older names are the same question.
    expect(figure(utf8(await raw(app, '/gold/eur/gram?w=12&wu=gram&k=14')), 'worth')).toBe(chain.v.melt_value);

    const one = (await app.json('/api/v1/value?item=sovereign&currency=EUR')).body.melt_value;
    const low = Math.round(one * 3 * 0.5);
    const coins = await both(`/gold/eur/gram?item=sovereign&qty=3&quote=${low}`, `item=sovereign&qty=3&currency=EUR&unit=gram&quote=${low}`);
    expect(figure(coins.html, 'worth')).toBe(coins.v.melt_value);
    expect(figure(coins.html, 'worth-quote')).toBe(coins.v.quote.premium_pct);
    expect(said(coins.html, 'worth')).toBe(`Metal value of 3 × Sovereign: ${euros(coins.v.melt_value)}`);
    expect(said(coins.html, 'worth-quote')).toMatch(/^The price you were quoted, .*, is [\d.]+% below the metal’s value \(€[\d,.]+ less\)\.$/);
    // The page's words say what this is not.
    expect(coins.html).toContain(
      'not a shop’s price: dealers and jewellers sell above it and buy below it; making charges and taxes are not included.',
    );
  });

  it('a fineness weight in a local unit (silver in tola, gold in lượng), in German too; money → weight stays', async () => {
    const tola = await both('/silver/inr/tola?weight=3&unit=tola&fineness=925', 'metal=silver&weight=3&unit=tola&fineness=925&currency=INR');
    expect(figure(tola.html, 'worth')).toBe(tola.v.melt_value);
    expect(said(tola.html, 'worth')).toMatch(/^Metal value of 3 tola of Silver \(925\): ₹[\d,]+\.\d\d$/);
    const luong = await both('/gold/vnd/luong?weight=2&unit=luong&fineness=999.9&lang=de', 'weight=2&unit=luong&fineness=999.9&currency=VND');
    expect(figure(luong.html, 'worth')).toBe(luong.v.melt_value);
    expect(said(luong.html, 'worth')).toMatch(new RegExp(`^Metallwert von 2 ${STRINGS.de.abbrLuong} Gold \\(999,9\\): [\\d.]+,\\d\\d\\s₫$`));
    expect(luong.html).toContain(PAGE_STRINGS.de.worthTitle);
    // What an amount buys: the weight whose metal value it is, at 22k.
    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=oz&compact=1')).body;
    const html = utf8(await raw(app, '/gold/eur/gram?money=1000&unit=oz&fineness=22k'));
    expect(figure(html, 'worth')! * spot.spot_usd_oz * spot.fx_rate * (22 / 24)).toBeCloseTo(1000, 6);
    expect(said(html, 'worth')).toMatch(/^€1,000\.00 is the metal value of [\d.]+ troy oz of 22k gold$/);
    expect(figure(utf8(await raw(app, '/gold/eur/gram?m=1000&wu=oz&k=22')), 'worth')).toBe(figure(html, 'worth'));
  });

  it('bad input is answered in words on the page (200), never echoed', async () => {
    for (const [query, text] of [
      ['weight=-1', 'Enter a weight above 0, at most 1,000,000,000.'],
      ['weight=%3Cscript%3Ealert(1)%3C/script%3E', 'Enter a weight above 0, at most 1,000,000,000.'],
      ['item=doubloon', 'Choose a coin from the list.'],
      ['item=krugerrand&qty=1.5', 'Enter a whole number of coins from 1 to 1,000,000.'],
      [
        'weight=1&fineness=1200',
        'Choose a purity from the list, or give a fineness as a fraction up to 1 (0.925) or in parts per thousand up to 1000 (925).',
      ],
      ['weight=1&item=krugerrand', 'Ask one thing at a time: a weight, coins or an amount of money.'],
    ]) {
      const res = await raw(app, `/gold/eur/gram?${query}`);
      expect(res.status, query).toBe(200);
      const html = utf8(res);
      expect(said(html, 'worth'), query).toBe(text);
      expect(html, query).not.toContain('alert(1)');
      expect(html, query).not.toContain('doubloon');
    }
  });

  it('the quantity table and the coins’ values are value’s; gold and silver pages list their coins, platinum none', async () => {
    for (const [metal, currency, unit] of [
      ['gold', 'eur', 'gram'],
      ['silver', 'inr', 'tola'],
      ['platinum', 'usd', 'oz'],
    ] as const) {
      const html = utf8(await raw(app, `/${metal}/${currency}/${unit}`));
      const rows = figures(html).filter((f) => f.name.startsWith('q-'));
      const local = unit === 'tola' ? ['q-1-tola', 'q-5-tola', 'q-10-tola'] : [];
      expect(rows.map((r) => r.name)).toEqual(['q-1-gram', 'q-8-gram', 'q-10-gram', 'q-100-gram', 'q-1-oz', 'q-1-kg', ...local]);
      for (const r of rows) {
        const [, weight, u] = r.name.split('-');
        const v = (await app.json(`/api/v1/value?metal=${metal}&weight=${weight}&unit=${u}&currency=${currency.toUpperCase()}`)).body;
        expect(r.v, `${metal} ${r.name}`).toBe(v.melt_value);
      }
      const coins = figures(html).filter((f) => f.name.startsWith('coin-'));
      const listed = ((await app.json('/api/v1/items')).body.items as { id: string; metal: string }[]).filter((i) => i.metal === metal);
      expect(coins.map((c) => c.name)).toEqual(listed.map((i) => `coin-${i.id}`));
      expect(coins.length > 0).toBe(metal !== 'platinum');
      for (const c of coins) {
        const v = (await app.json(`/api/v1/value?item=${c.name.slice(5)}&currency=${currency.toUpperCase()}`)).body;
        expect(c.v, `${metal} ${c.name}`).toBe(v.melt_value);
      }
    }
  });

  it('the form’s answer is part of the page’s validators: another question, another ETag; the same one, 304', async () => {
    const a = await raw(app, '/gold/eur/gram?weight=2&fineness=18k');
    const b = await raw(app, '/gold/eur/gram?weight=3&fineness=18k');
    expect(a.headers.etag).not.toBe(b.headers.etag);
    expect(a.headers['cache-control']).toBe('public, max-age=30');
    const held = await raw(app, '/gold/eur/gram?weight=2&fineness=18k', { 'if-none-match': String(a.headers.etag) });
    expect(held.status).toBe(304);
  });
});

describe('why the price moved, how it did over each window, and the years (decisions §32)', () => {
  /** The split's words beside the day change, with the two percents behind them. */
  function why(html: string): { metal: string; fx: string; text: string } {
    const m = /<p data-f="why" data-v="([^"]*)" data-fx="([^"]*)"[^>]*>([^<]*)<\/p>/.exec(html);
    if (!m) throw new Error('no split');
    return { metal: m[1], fx: m[2], text: m[3] };
  }

  it('the day change in words beside it, as spot splits it, in English and German; in dollars, all of it the metal’s', async () => {
    const [en, de, usd, spot, spotUsd] = await Promise.all([
      raw(app, '/gold/eur/gram'),
      raw(app, '/gold/eur/gram?lang=de'),
      raw(app, '/gold/usd/oz'),
      app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1'),
      app.json('/api/v1/spot?currency=USD&unit=oz&compact=1'),
    ]);
    // The previous close is an imported bar, recorded without the exchange rate of its day: spot cannot tell the
    // metal's part from the euro's, and the page says so rather than guess.
    expect(spot.body.change).toMatchObject({ state: 'ok', fx_basis: 'current', from_metal: null, from_currency: null });
    expect(why(utf8(en))).toEqual({
      metal: '',
      fx: '',
      text: 'How much of it is the metal’s own move and how much the Euro’s is not known: no exchange rate was recorded at the previous close, or none is live now.',
    });
    expect(why(utf8(de)).text).toBe(
      'Wie viel davon die eigene Bewegung des Metalls ist und wie viel die der Währung Euro, ist nicht bekannt: Beim letzten Schlusskurs wurde kein Wechselkurs aufgezeichnet, oder jetzt ist keiner aktuell.',
    );
    // In dollars the whole change is gold's own (spot's from_currency is zero), and the page says so.
    expect(spotUsd.body.change.from_currency).toEqual({ amount: 0, pct: 0 });
    const pct = new Intl.NumberFormat('en', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(why(utf8(usd))).toEqual({
      metal: String(spotUsd.body.change.from_metal.pct),
      fx: '0',
      text: `Gold: ${pct.format(spotUsd.body.change.change_pct / 100)} in US dollars, all of it the metal’s own move`,
    });
  });

  /** A page's performance rows: window, series, the figure behind it and what the row says. */
  function performance(html: string): { window: string; series: string; v: number | null; text: string }[] {
    return [...html.matchAll(/<tr data-window="(\w+)" data-series="(\w*)" data-v="([^"]*)">(.*?)<\/tr>/g)].map((m) => ({
      window: m[1],
      series: m[2],
      v: m[3] === '' ? null : Number(m[3]),
      text: m[4].replace(/<[^>]+>/g, ' '),
    }));
  }
  /** The chart's plan as the page hands it to its script. */
  const planOf = (html: string) =>
    JSON.parse(
      /<section id="chart"[^>]*data-plan="([^"]*)"/
        .exec(html)![1]
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
  const SERIES_WORDS = {
    spot: 'Spot, daily closes',
    futures: 'COMEX futures (not spot)',
    monthly: 'Monthly averages (World Bank, CC BY 4.0)',
  } as const;
  const CHART_RANGE: Record<string, string> = { '1w': '5d', '1m': '1mo', '6m': '6mo', '1y': '1y', '5y': '5y', '10y': '10y', max: 'max' };
  const SYMBOL = { gold: 'xau', silver: 'xag', palladium: 'xpd' } as const;

  it('each performance figure is history’s period.change_pct for the same series and window, the series the chart draws, named', async () => {
    const PAGES: [metal: keyof typeof SYMBOL, currency: string, unit: U, figures: number][] = [
      ['gold', 'eur', 'gram', 8],
      ['gold', 'usd', 'oz', 8],
      ['silver', 'usd', 'oz', 4],
      ['palladium', 'eur', 'gram', 0],
    ];
    for (const [metal, currency, unit, count] of PAGES) {
      const where = `/${metal}/${currency}/${unit}`;
      const html = utf8(await raw(app, where));
      const plan = planOf(html);
      const rows = performance(html);
      expect(
        rows.map((r) => r.window),
        where,
      ).toEqual(['1w', '1m', '6m', 'ytd', '1y', '5y', '10y', 'max']);
      expect(rows.filter((r) => r.v !== null).length, where).toBe(count);
      for (const r of rows) {
        const at = `${where} ${r.window}`;
        // The chart's series for the same range; year to date, which it has no range for, the spot bars or gold's futures.
        const line = r.window === 'ytd' ? (r.series === 'spot' ? 'spot' : 'futures') : plan.series[CHART_RANGE[r.window]].line;
        if (line === 'spot' || line === 'monthly') expect(r.series, at).toBe(line);
        else if (metal === 'gold') expect(r.series, at).toBe('futures');
        // Another metal's futures are not history's: its monthly averages over a year or more, its spot bars since the
        // start where it has no monthly series, else nothing; never gold's futures.
        else
          expect(r.series, at).toBe(
            metal === 'palladium' ? (r.window === 'max' ? 'spot' : '') : ['1y', '5y', '10y', 'max'].includes(r.window) ? 'monthly' : '',
          );
        if (r.v === null) {
          expect(r.text, at).toContain('Not available');
          continue;
        }
        const h = await app.json(
          `/api/v1/history?series=${r.series}&symbol=${SYMBOL[metal]}&currency=${currency.toUpperCase()}&unit=${unit}&range=${r.window}`,
        );
        expect(h.status, at).toBe(200);
        expect(r.v, at).toBe(h.body.period.change_pct);
        expect(r.text, at).toContain(SERIES_WORDS[r.series as keyof typeof SERIES_WORDS]);
        // Its dates are the window's first and last points.
        const dates = h.body.series === 'monthly' ? [h.body.period.from.slice(0, 4), h.body.period.to.slice(0, 4)] : [h.body.period.to.slice(0, 4)];
        for (const d of dates) expect(r.text, at).toContain(d);
      }
    }
  });

  it('a currency the rate history does not cover: each window and the years say so, and the page and its price stand', async () => {
    const [page, history] = await Promise.all([raw(app, '/gold/gbp/oz'), app.json('/api/v1/history?series=futures&currency=GBP&range=1y')]);
    expect(history.status).toBe(400);
    expect(page.status).toBe(200);
    const html = utf8(page);
    expect(figure(html, 'price')).not.toBeNull();
    const rows = performance(html);
    expect(rows).toHaveLength(8);
    for (const r of rows) expect([r.window, r.v, r.text.trim()]).toEqual([r.window, null, expect.stringContaining('Not available in GBP')]);
    expect(html).toContain('No yearly figures in GBP.');
  });

  /** A page's years: each row's series, its numbers (`data-v`: first, last, high, low, average, change, change %) and its label. */
  function years(html: string) {
    return [...html.matchAll(/<tr data-year="(\d+)" data-series="(\w+)" data-v="([^"]*)"><th scope="row">([^<]*)</g)].map((m) => {
      const [first, last, high, low, avg, change, pct] = m[3].split(' ').map((v) => (v === '' ? null : Number(v)));
      return { year: Number(m[1]), series: m[2], first: first!, last: last!, high: high!, low: low!, avg: avg!, change, pct, label: m[4] };
    });
  }

  it('the years: each year’s figures are its series’ own points, grouped here; daily where a daily series has the whole year, monthly averages before, labelled', async () => {
    for (const [metal, currency, unit] of [
      ['gold', 'eur', 'gram'],
      ['silver', 'usd', 'oz'],
    ] as const) {
      const where = `/${metal}/${currency}/${unit}`;
      const html = utf8(await raw(app, where));
      const rows = years(html);
      expect(rows.length, where).toBeGreaterThan(10);
      // Newest first, one row a year.
      expect(
        rows.map((r) => r.year),
        where,
      ).toEqual([...rows.map((r) => r.year)].sort((a, b) => b - a));
      const dp = DECIMALS[unit];
      // Each series' ungrouped points, in the page's currency and unit (each at its own date's rate), grouped by year here.
      const pointsOf = new Map<string, { d: string; c: number; h?: number; l?: number; o?: number }[]>();
      for (const series of new Set(rows.map((r) => r.series))) {
        const h = await app.json(
          `/api/v1/history?series=${series}&symbol=${SYMBOL[metal]}&currency=${currency.toUpperCase()}&unit=${unit}&range=max`,
        );
        expect(h.status, `${where} ${series}`).toBe(200);
        pointsOf.set(series, h.body.points);
      }
      for (const r of rows) {
        const at = `${where} ${r.year} ${r.series}`;
        const all = pointsOf.get(r.series)!;
        const inYear = all.filter((p) => p.d.startsWith(`${r.year}-`));
        expect(inYear.length, at).toBeGreaterThan(0);
        // The first is the year's first point's open (its close on the monthly series); the futures' answer has no
        // open, which lies within that day's range.
        if (r.series === 'futures') {
          expect(r.first, at).toBeGreaterThanOrEqual(inYear[0].l!);
          expect(r.first, at).toBeLessThanOrEqual(inYear[0].h!);
        } else expect(r.first, at).toBe(inYear[0].o ?? inYear[0].c);
        expect(r.last, at).toBe(inYear.at(-1)!.c);
        expect(r.high, at).toBe(Math.max(...inYear.map((p) => p.h ?? p.c)));
        expect(r.low, at).toBe(Math.min(...inYear.map((p) => p.l ?? p.c)));
        // The average of the closes (history averages them unrounded: within one step of the last decimal).
        const mean = inYear.reduce((s, p) => s + p.c, 0) / inYear.length;
        expect(Math.abs(r.avg - mean), at).toBeLessThanOrEqual(10 ** -dp + 1e-9);
        // The change on the last close of the year before, in the same series; none when it has no such year.
        const before = all.filter((p) => p.d.startsWith(`${r.year - 1}-`)).at(-1);
        if (!before) expect([r.change, r.pct], at).toEqual([null, null]);
        else {
          expect(Math.abs(r.change! - (r.last - before.c)), at).toBeLessThanOrEqual(0.51 * 10 ** -dp);
          expect(Math.abs(r.pct! - (r.last / before.c - 1) * 100), at).toBeLessThanOrEqual(0.0051);
        }
        // Daily since 2000 where the series has the whole year (the futures from its first week; the fixture's start
        // in April 2021 is not), the World Bank's monthly averages before it and for a year no daily series has whole.
        if (r.series === 'futures') expect(r.year >= 2000 && inYear[0].d <= `${r.year}-01-07`, at).toBe(true);
        if (r.series === 'monthly' && r.year < 2026 && inYear.length < 12) expect(r.label, at).toBe(`${r.year} (months: ${inYear.length})`);
      }
      // Labelled: each run of years under its series' name; the monthly years under the World Bank's.
      const runs = [...html.matchAll(/<tbody data-series="(\w+)"><tr><th scope="rowgroup" colSpan="7" class="pp-run">([^<]*)</g)];
      expect(runs.length, where).toBeGreaterThan(0);
      for (const [, series, name] of runs) expect(name, where).toBe(SERIES_WORDS[series as keyof typeof SERIES_WORDS]);
      expect(rows.some((r) => r.series === 'monthly')).toBe(true);
      if (metal === 'gold') {
        // The fixture's futures begin in April 2021: 2022 on from them, 2021 and before from the monthly averages.
        expect(rows.filter((r) => r.series === 'futures').map((r) => r.year)).toEqual([2026, 2025, 2024, 2023, 2022]);
        expect(rows.find((r) => r.year === 2021)?.series).toBe('monthly');
        // The year so far says to when.
        expect(rows[0].label).toMatch(/^2026 \(to [A-Z][a-z]{2} \d+, 2026\)$/);
      } else
        expect(
          rows.every((r) => r.series === 'monthly'),
          where,
        ).toBe(true);
    }
  });
});

describe('which page: the address, the saved choice, the browser’s languages', () => {
  const CASES: [acceptLanguage: string | null, page: string, lang: string][] = [
    ['de-DE,de;q=0.9,en;q=0.5', '/gold/eur/gram', 'de-DE'],
    ['en-IN', '/gold/inr/gram', 'en-IN'],
    ['ja-JP', '/gold/jpy/gram', 'ja-JP'],
    ['ar-AE', '/gold/aed/gram', 'ar-AE'],
    ['tr-TR', '/gold/try/gram', 'tr-TR'],
    ['en-GB', '/gold/gbp/oz', 'en-GB'],
    ['fr', '/gold/usd/oz', 'fr'],
    [null, '/gold/usd/oz', 'en'],
  ];
  it('/ answers in the currency of the first tag with a region and its market’s unit, without a redirect, varying on both', async () => {
    for (const [al, page, lang] of CASES) {
      const res = await raw(app, '/', al ? { 'accept-language': al } : {});
      expect(res.status, String(al)).toBe(200);
      expect(res.headers.vary, String(al)).toMatch(/Accept-Language, Cookie/);
      const html = utf8(res);
      expect(canonical(html), String(al)).toBe(app.url + page);
      expect(html, String(al)).toContain(`<html lang="${lang}"${lang === 'ar-AE' ? ' dir="rtl"' : ''}>`);
    }
    expect(h1(utf8(await raw(app, '/', { 'accept-language': 'de-DE' })))).toBe('Goldpreis in EUR pro Gramm');
  });

  it('the saved choice wins, on / and /{metal}; the picker saves it; ?lang= beats the saved language', async () => {
    const pick = await raw(app, '/pick?metal=silver&currency=thb&unit=baht&lang=de');
    expect(pick.status).toBe(303);
    expect(pick.headers.location).toBe('/silver/thb/baht');
    const cookies = (pick.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    expect(cookies).toEqual(['pref=thb.baht', 'lang=de']);
    const cookie = cookies.join('; ');
    for (const [path, page] of [
      ['/', '/gold/thb/baht'],
      ['/silver', '/silver/thb/baht'],
    ]) {
      const html = utf8(await raw(app, path, { cookie, 'accept-language': 'en-US' }));
      expect(canonical(html), path).toBe(app.url + page);
      expect(html, path).toContain('<html lang="de">');
    }
    const asked = utf8(await raw(app, '/silver?lang=fr', { cookie }));
    expect(asked).toContain('<html lang="fr">');
    expect(canonical(asked)).toBe(`${app.url}/silver/thb/baht?lang=fr`);
    // hreflang alternates: each language and x-default.
    for (const l of ['en', 'de', 'fr', 'es', 'it', 'pt', 'tr', 'ar', 'hi', 'zh', 'ja'])
      expect(asked).toContain(`<link rel="alternate" hrefLang="${l}" href="${app.url}/silver/thb/baht?lang=${l}"`);
    expect(asked).toContain(`<link rel="alternate" hrefLang="x-default" href="${app.url}/silver/thb/baht"`);
    // A currency spot does not accept is not saved.
    const bad = await raw(app, '/pick?metal=gold&currency=zzz&unit=gram');
    expect(bad.headers['set-cookie']).toBeUndefined();
  });

  it('another case is a 308 to the lower-case path with its query; unknown metal, currency or unit is the site’s 404', async () => {
    const moved = await raw(app, '/Gold/EUR/Gram?date=2026-04-15&lang=de');
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toBe('/gold/eur/gram?date=2026-04-15&lang=de');
    expect((await raw(app, '/SILVER')).headers.location).toBe('/silver');
    for (const path of ['/copper/usd/oz', '/gold/xyz/oz', '/gold/usd/ton', '/copper', '/gold/usd', '/gold/eu/oz']) {
      const res = await raw(app, path);
      expect(res.status, path).toBe(404);
      const html = utf8(res);
      expect(html, path).toContain('Page not found');
      for (const m of ['gold', 'silver', 'platinum', 'palladium']) expect(html, path).toContain(`href="/${m}"`);
      expect(html, path).toContain('href="/developers"');
    }
    // It lists every currency a page takes (the FX table's codes), each linking to its gold page in its market's unit.
    const codes = Object.keys(fixture<{ rates: Record<string, number> }>('er-api-latest-USD.json').rates);
    const listed = utf8(await raw(app, '/gold/xyz/oz')).match(/href="\/gold\/[a-z]{3}\/[a-z]+" dir="ltr">[A-Z]{3}</g) ?? [];
    expect(listed.length).toBe(codes.length);
    for (const link of ['href="/gold/jpy/gram" dir="ltr">JPY<', 'href="/gold/pkr/tola" dir="ltr">PKR<', 'href="/gold/usd/oz" dir="ltr">USD<'])
      expect(listed).toContain(link);
    // The developer home, and the header links to it.
    const dev = utf8(await raw(app, '/developers'));
    expect(h1(dev)).toBe('Gold market data you can trust');
    expect(utf8(await raw(app, '/gold/usd/oz'))).toContain('<a href="/developers">Developers</a>');
  });

  it('a price page’s header and footer are in its language, a 404 in the visitor’s; other pages stay English', async () => {
    const de = utf8(await raw(app, '/gold/eur/gram?lang=de'));
    expect(de).toContain(`<a href="/developers">${PAGE_STRINGS.de.navDevelopers}</a>`);
    expect(de).toContain(PAGE_STRINGS.de.disclaimer);
    const asked = await raw(app, '/copper/usd/oz?lang=de');
    expect(asked.status).toBe(404);
    expect(h1(utf8(asked))).toBe(PAGE_STRINGS.de.notFound);
    expect(utf8(asked)).toContain('href="/gold?lang=de"');
    const ar = await raw(app, '/gold/xyz/gram', { 'accept-language': 'ar-AE' });
    expect(ar.status).toBe(404);
    const html = utf8(ar);
    expect(html).toMatch(/<html lang="ar[^"]*" dir="rtl">/);
    expect(h1(html)).toBe(PAGE_STRINGS.ar.notFound);
    expect(html).toContain(`<a href="/docs">${PAGE_STRINGS.ar.navDocs}</a>`);
    // Any address's 404 (here one no price route takes); the other pages are English whatever the browser.
    expect(h1(utf8(await raw(app, '/docs/nothing/here/either?lang=de')))).toBe(PAGE_STRINGS.de.notFound);
    const docs = utf8(await raw(app, '/docs', { 'accept-language': 'de-DE' }));
    expect(docs).toContain('<html lang="en">');
    expect(docs).toContain('<a href="/developers">Developers</a>');
  });
});

describe('cacheable, shareable, crawlable', () => {
  it('a page: public, CDN-Cache-Control with stale-while-revalidate, an ETag from the data (not the clock), Last-Modified, 304', async () => {
    const first = await raw(app, '/gold/eur/gram');
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    expect(first.headers['cdn-cache-control']).toBe('max-age=30, stale-while-revalidate=30');
    expect(first.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body;
    expect(first.headers['last-modified']).toBe(new Date(Math.floor(Date.parse(spot.data_state.as_of) / 1000) * 1000).toUTCString());
    await sleep(1500);
    const later = await raw(app, '/gold/eur/gram');
    expect(later.headers.etag).toBe(first.headers.etag);
    const held = await raw(app, '/gold/eur/gram', { 'if-none-match': String(first.headers.etag) });
    expect(held.status).toBe(304);
    expect(held.body).toBe('');
    expect((await raw(app, '/gold/eur/gram', { 'if-modified-since': String(first.headers['last-modified']) })).status).toBe(304);
    // Another language is another representation.
    expect((await raw(app, '/gold/eur/gram', { 'accept-language': 'de-DE' })).headers.etag).not.toBe(first.headers.etag);
  });

  it('Open Graph and Twitter tags name a 1200×630 PNG drawn for the page, cacheable 60 s', async () => {
    const html = utf8(await raw(app, '/gold/inr/tola'));
    const image = `${app.url}/og/gold/inr/tola.png`;
    expect(html).toContain(`<meta property="og:image" content="${image}"`);
    expect(html).toContain(`<meta name="twitter:image" content="${image}"`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    const png = await app.get('/og/gold/inr/tola.png');
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('public, max-age=60');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    const missing = await app.get('/og/gold/xyz/tola.png');
    await missing.arrayBuffer();
    expect(missing.status).toBe(404);
  });

  it('/sitemap.xml lists the four metals in the common currencies and units; /robots.txt points to it', async () => {
    const sitemap = await app.get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    const xml = await sitemap.text();
    for (const p of ['/gold/usd/oz', '/gold/eur/gram', '/silver/inr/gram', '/platinum/pkr/tola', '/palladium/thb/baht', '/gold/hkd/tael'])
      expect(xml).toContain(`<loc>${app.url}${p}</loc>`);
    const robots = await app.get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${app.url}/sitemap.xml`);
  });
});
