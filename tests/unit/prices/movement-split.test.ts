import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import type { Spot } from '@/lib/schemas/spot';
import { figuresOfSpot, textsOf } from '@/site/price-figures';
import { PAGE_STRINGS, STRINGS, type Language } from '@/widgets/i18n';
import { fixtureBars } from '../../support/bars';
import { FakeUpstream, fixture, fixtureText } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';

// Why the price moved (decisions §32): the day change split into what the metal made of it and what the currency
// made, on the embedded store with a fixed clock. The previous close is recorded on Tuesday 14 April 2026 while the
// FX source serves the recorded table of 19 August 2024 (so that table is the closing one); the price now is
// Wednesday's, at the recorded table of June 2026. Between the two the rupee fell (83.92 -> 95.10 per dollar) and the
// euro rose (0.9075 -> 0.8596): gold fell in dollars that day, and rose in rupees. Every expected figure is this
// file's own computation from those numbers, by the formula of §32.

let fake: FakeUpstream;
let lib: {
  bars: typeof import('@/lib/prices/bars');
  movement: typeof import('@/lib/prices/movement');
  store: typeof import('@/lib/store');
  mcp: typeof import('@/lib/mcp/server');
  spot: typeof import('@/lib/prices/spot');
};

const ny = (local: string) => Date.parse(local);
const GRAMS_PER_OZ = 31.1034768;
const GRAMS = { oz: GRAMS_PER_OZ, gram: 1, tola: 11.6638038 } as const;
const DP = { oz: 2, gram: 4, tola: 2 } as const;
/** Half away from zero, as the service rounds. */
const round = (v: number, dp: number) => (Math.sign(v) * Math.round(Math.abs(v) * 10 ** dp * (1 + Number.EPSILON))) / 10 ** dp;
const perUnit = (perOz: number, unit: keyof typeof GRAMS) => (perOz / GRAMS_PER_OZ) * GRAMS[unit];

/** The FX table in force at the recorded close, and the one in force now. */
const atClose: Record<string, number> = fixture('er-api-latest-USD-2024-08-19.json').rates;
const now: Record<string, number> = fixture('er-api-latest-USD.json').rates;

/** A day's close in the broker's daily files (USD per troy ounce), read the plain way. */
function closeOn(file: string, date: string): number {
  const row = fixtureText(file)
    .split(/\r?\n/)
    .find((l) => l.startsWith(`${date},`))!;
  return Number(row.split(',')[4]);
}
const GOLD = { p0: closeOn('gold-daily-ohlc-usd.csv', '2026-04-14'), p1: closeOn('gold-daily-ohlc-usd.csv', '2026-04-15') };
const SILVER = { p0: closeOn('silver-daily-ohlc-usd.csv', '2026-04-14'), p1: closeOn('silver-daily-ohlc-usd.csv', '2026-04-15') };
const WEDNESDAY = ny('2026-04-15T10:00:00-04:00');

const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.set('fx', { mode: 'ok', fixture: 'er-api-latest-USD-2024-08-19.json' });
  Object.assign(process.env, fake.env(), {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-movement-split-')),
    CACHE_TTL_S: '1',
  });
  lib = {
    bars: await import('@/lib/prices/bars'),
    movement: await import('@/lib/prices/movement'),
    store: await import('@/lib/store'),
    mcp: await import('@/lib/mcp/server'),
    spot: await import('@/lib/prices/spot'),
  };
  // Tuesday's closes, recorded from served prices before 17:00 New York, with the FX table then in force.
  await lib.bars.recordServed('gold', fresh(GOLD.p0, ny('2026-04-14T16:30:00-04:00')));
  await lib.bars.recordServed('silver', fresh(SILVER.p0, ny('2026-04-14T16:31:00-04:00')));
  expect((await lib.bars.closeFx('2026-04-14'))?.rates.INR).toBe(atClose.INR);
});
afterAll(() => fake.close());

/** What §32 says the parts are, unrounded, per unit: p USD per ounce, F the currency per USD, 0 at the close, 1 now. */
function formula(p0: number, p1: number, f0: number, f1: number, unit: keyof typeof GRAMS) {
  return {
    metal: perUnit((p1 - p0) * f0, unit),
    currency: perUnit(p1 * (f1 - f0), unit),
    metalPct: (p1 / p0 - 1) * 100,
    currencyPct: (p1 / p0) * (f1 / f0 - 1) * 100,
  };
}

/** Checks one change against the formula: the metal's part rounded from it, the currency's the rest, both within rounding. */
function expectSplit(
  c: Awaited<ReturnType<typeof import('@/lib/prices/movement').movement>>,
  p: { p0: number; p1: number },
  code: string,
  unit: keyof typeof GRAMS,
) {
  const dp = DP[unit];
  const f = formula(p.p0, p.p1, atClose[code], now[code], unit);
  const price = round(perUnit(p.p1 * now[code], unit), dp);
  const previous = round(perUnit(p.p0 * atClose[code], unit), dp);
  const change = round(price - previous, dp);
  expect(c).toMatchObject({ state: 'ok', fx_basis: 'close', previous_close: previous, change });
  expect(c.from_metal).toEqual({ amount: round(f.metal, dp), pct: round(f.metalPct, 2) });
  // The parts shown add up to the change shown, exactly, and each stays within rounding of its formula.
  expect(round(c.from_metal!.amount + c.from_currency!.amount, dp)).toBe(c.change);
  expect(round(c.from_metal!.pct + c.from_currency!.pct, 2)).toBe(c.change_pct);
  expect(Math.abs(c.from_currency!.amount - f.currency)).toBeLessThanOrEqual(1.5 * 10 ** -dp + 1e-9);
  expect(Math.abs(c.from_currency!.pct - f.currencyPct)).toBeLessThanOrEqual(0.015 + 1e-9);
  // And they are the formula's whole: (p1·F1 − p0·F0) per unit.
  expect(Math.abs(f.metal + f.currency - perUnit(p.p1 * now[code] - p.p0 * atClose[code], unit))).toBeLessThan(1e-6);
}

describe('the day change, split into the metal and the currency', () => {
  it('INR and EUR, per ounce, gram and tola: gold fell in dollars and rose in rupees; the euro’s rise made it fall more in euros', async () => {
    expect(GOLD.p1).toBeLessThan(GOLD.p0);
    for (const unit of ['oz', 'gram', 'tola'] as const) {
      const inr = await lib.movement.movement('gold', { priceUsdOz: GOLD.p1, currency: 'INR', rate: now.INR, fxFresh: true, unit }, WEDNESDAY);
      expectSplit(inr, GOLD, 'INR', unit);
      // Down in dollars, up in rupees: the rupee's fall made more than the whole change.
      expect(inr.from_metal!.amount).toBeLessThan(0);
      expect(inr.from_metal!.pct).toBeLessThan(0);
      expect(inr.change!).toBeGreaterThan(0);
      expect(inr.from_currency!.amount).toBeGreaterThan(inr.change!);
      const eur = await lib.movement.movement('gold', { priceUsdOz: GOLD.p1, currency: 'EUR', rate: now.EUR, fxFresh: true, unit }, WEDNESDAY);
      expectSplit(eur, GOLD, 'EUR', unit);
      expect(eur.from_currency!.amount).toBeLessThan(0);
      expect(eur.change!).toBeLessThan(eur.from_metal!.amount);
    }
  });

  it('the parts add up to the change shown for every close of early 2026 taken as the price now, in INR and EUR per ounce and gram', async () => {
    // Rounding each part from its formula alone would leave them a cent off the change in some of these.
    const closes = fixtureText('gold-daily-ohlc-usd.csv')
      .split(/\r?\n/)
      .filter((l) => l >= '2026-01' && l < '2026-04-14')
      .map((l) => Number(l.split(',')[4]));
    expect(closes.length).toBeGreaterThan(60);
    for (const p1 of closes)
      for (const code of ['INR', 'EUR'])
        for (const unit of ['oz', 'gram'] as const) {
          const c = await lib.movement.movement('gold', { priceUsdOz: p1, currency: code, rate: now[code], fxFresh: true, unit }, WEDNESDAY);
          expectSplit(c, { p0: GOLD.p0, p1 }, code, unit);
        }
  });

  it("silver's change is split the same way", async () => {
    const c = await lib.movement.movement(
      'silver',
      { priceUsdOz: SILVER.p1, currency: 'INR', rate: now.INR, fxFresh: true, unit: 'gram' },
      WEDNESDAY,
    );
    expectSplit(c, SILVER, 'INR', 'gram');
    expect(c.previous_close_date).toBe('2026-04-14');
  });

  it('USD: all of the change is the metal’s, the currency’s part {0, 0}, with a fresh FX table or without one', async () => {
    for (const fxFresh of [true, false]) {
      const c = await lib.movement.movement('gold', { priceUsdOz: GOLD.p1, currency: 'USD', rate: 1, fxFresh, unit: 'oz' }, WEDNESDAY);
      const change = round(round(GOLD.p1, 2) - round(GOLD.p0, 2), 2);
      expect(c.change).toBe(change);
      expect(c.from_metal).toEqual({ amount: change, pct: round((change / round(GOLD.p0, 2)) * 100, 2) });
      expect(c.from_currency).toEqual({ amount: 0, pct: 0 });
    }
  });

  it('fx_basis current (the FX table in force is not fresh, or the previous bar was imported without its table): both parts null', async () => {
    const stale = await lib.movement.movement('gold', { priceUsdOz: GOLD.p1, currency: 'EUR', rate: now.EUR, fxFresh: false, unit: 'oz' }, WEDNESDAY);
    expect(stale).toMatchObject({ state: 'ok', fx_basis: 'current', from_metal: null, from_currency: null });
    expect(stale.change).not.toBeNull();
    // An imported Wednesday: Thursday's change has no closing table behind it.
    await lib.store.getStore().importBars('daily:xau', fixtureBars(['2026-04-15']));
    const thursday = ny('2026-04-16T10:00:00-04:00');
    const price = closeOn('gold-daily-ohlc-usd.csv', '2026-04-16');
    const inr = await lib.movement.movement('gold', { priceUsdOz: price, currency: 'INR', rate: now.INR, fxFresh: true, unit: 'oz' }, thursday);
    expect(inr).toMatchObject({ state: 'ok', previous_close_date: '2026-04-15', fx_basis: 'current', from_metal: null, from_currency: null });
    // In USD the split needs no rate.
    const usd = await lib.movement.movement('gold', { priceUsdOz: price, currency: 'USD', rate: 1, fxFresh: true, unit: 'oz' }, thursday);
    expect(usd.from_metal).toEqual({ amount: usd.change, pct: usd.change_pct });
    expect(usd.from_currency).toEqual({ amount: 0, pct: 0 });
    // No earlier bar at all: unavailable, both null.
    const none = await lib.movement.movement('palladium', { priceUsdOz: price, currency: 'INR', rate: now.INR, fxFresh: true, unit: 'oz' }, thursday);
    expect(none).toMatchObject({ state: 'unavailable', change: null, from_metal: null, from_currency: null });
  });
});

describe('get_gold_price says it in words', () => {
  it('the split in the structured answer equals the formula, and the text says how much was gold and how much the rupee', async () => {
    // Wednesday 10:00 New York on the instance's calendar, with today's FX table in force.
    fake.set('fx', { mode: 'ok' });
    Object.assign(process.env, marketClockAt(WEDNESDAY));
    const server = lib.mcp.createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    type Result = { structuredContent: Spot; content: { text: string }[] };
    const ask = async (args: Record<string, string>) => (await client.callTool({ name: 'get_gold_price', arguments: args })) as Result;
    try {
      // The FX table cached from Tuesday gives way to today's within its 1-second TTL.
      await expect.poll(async () => (await ask({ currency: 'INR' })).structuredContent.fx_rate, { timeout: 10_000 }).toBe(now.INR);
      const inr = await ask({ currency: 'INR' });
      const body = inr.structuredContent;
      const p1 = body.spot_usd_oz;
      const c = body.change;
      const f = formula(GOLD.p0, p1, atClose.INR, now.INR, 'oz');
      expect(c).toMatchObject({ state: 'ok', previous_close_date: '2026-04-14', fx_basis: 'close' });
      expect(c.from_metal).toEqual({ amount: round(f.metal, 2), pct: round(f.metalPct, 2) });
      expect(round(c.from_metal!.amount + c.from_currency!.amount, 2)).toBe(c.change);
      expect(Math.abs(c.from_currency!.pct - f.currencyPct)).toBeLessThanOrEqual(0.015 + 1e-9);
      // The recorded price now is below Tuesday's close in dollars, above it in rupees.
      expect(c.from_metal!.pct).toBeLessThan(0);
      expect(c.change!).toBeGreaterThan(0);
      const pct = (n: number) => `${n > 0 ? '+' : '−'}${Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
      const text = inr.content[0].text;
      expect(text).toContain(`(${pct(c.change_pct!)}) since the previous close of 2026-04-14`);
      expect(text).toContain(`gold ${pct(c.from_metal!.pct)} in US dollars`);
      expect(text).toContain(`${pct(c.from_currency!.pct)} from the Indian Rupee's fall against the US dollar`);
      const eur = (await ask({ currency: 'EUR' })).content[0].text;
      expect(eur).toContain("from the Euro's rise against the US dollar");
      expect((await ask({ currency: 'USD' })).content[0].text).toContain("all of it gold's own move, in US dollars");
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('the price page says it in words beside the day change (decisions §32)', () => {
  it('gold fell in dollars and rose in rupees (English, Hindi); the euro’s rise (German); nothing to split in dollars', async () => {
    fake.set('fx', { mode: 'ok' });
    Object.assign(process.env, marketClockAt(WEDNESDAY));
    /** Spot in `currency` per gram once today's FX table is in force. */
    const spotIn = async (currency: string): Promise<Spot> => {
      let body: Spot | null = null;
      await expect
        .poll(
          async () => {
            body = (await lib.spot.getSpot({ currency, unit: 'gram', compact: '1' }, { origin: 'http://t' })) as Spot;
            return body.fx_rate;
          },
          { timeout: 10_000 },
        )
        .toBe(now[currency]);
      return body!;
    };
    /** The page's words for the split, as the server and the page's script write them. */
    const words = (s: Spot, lang: Language) =>
      textsOf(figuresOfSpot(s, 'gold', 'gram'), { t: STRINGS[lang], p: PAGE_STRINGS[lang], lang, locale: lang }, WEDNESDAY).why;
    /** A signed percent as the locale writes it. */
    const pct = (n: number, locale: string) =>
      new Intl.NumberFormat(locale, { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
        n / 100,
      );

    const inrSpot = await spotIn('INR');
    const inr = inrSpot.change;
    expect(inr).toMatchObject({ state: 'ok', previous_close_date: '2026-04-14', fx_basis: 'close' });
    // Gold fell in dollars; more rupees to the dollar (the rupee fell) made it rise in rupees.
    expect(inr.from_metal!.pct).toBeLessThan(0);
    expect(now.INR).toBeGreaterThan(atClose.INR);
    expect(inr.from_currency!.pct).toBeGreaterThan(0);
    expect(inr.change!).toBeGreaterThan(0);
    const [m, f] = [inr.from_metal!.pct, inr.from_currency!.pct];
    expect(words(inrSpot, 'en')).toBe(`Gold: ${pct(m, 'en')} in US dollars, ${pct(f, 'en')} from the Indian Rupee’s fall against the dollar`);
    expect(words(inrSpot, 'hi')).toBe(`सोना: अमेरिकी डॉलर में ${pct(m, 'hi')}, और ${pct(f, 'hi')} डॉलर के मुक़ाबले मुद्रा (भारतीय रुपया) के गिरने से`);

    // Fewer euros to the dollar: the euro rose, and took from gold's price in euros.
    const eurSpot = await spotIn('EUR');
    const eur = eurSpot.change;
    expect(now.EUR).toBeLessThan(atClose.EUR);
    expect(eur.from_currency!.pct).toBeLessThan(0);
    expect(words(eurSpot, 'de')).toBe(
      `Gold: ${pct(eur.from_metal!.pct, 'de')} in US-Dollar, ${pct(eur.from_currency!.pct, 'de')}, weil die Währung Euro gegenüber dem Dollar gestiegen ist`,
    );
    expect(words(eurSpot, 'en')).toContain('from the Euro’s rise against the dollar');

    // In dollars the whole change is the metal's, and the page says so.
    const usd = await spotIn('USD');
    expect(usd.change.from_currency).toEqual({ amount: 0, pct: 0 });
    expect(words(usd, 'en')).toBe(`Gold: ${pct(usd.change.change_pct!, 'en')} in US dollars, all of it the metal’s own move`);
    expect(words(usd, 'ja')).toBe(`金：米ドル建てで ${pct(usd.change.change_pct!, 'ja')}、すべて金属自体の値動き`);
  });
});
