import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import { fixtureBars } from '../../support/bars';
import { FakeUpstream, fixture } from '../../support/fake-upstream';

// Daily bars folded from served readings, and the change computed from them, on the embedded store
// with a fixed clock. Every price is a real one: the recorded gold-api.com body, the broker's daily
// rows in tests/fixtures, and the two recorded FX tables.

let fake: FakeUpstream;
let lib: {
  bars: typeof import('@/lib/prices/bars');
  movement: typeof import('@/lib/prices/movement');
  store: typeof import('@/lib/store');
};

beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-movement-')) });
  lib = { bars: await import('@/lib/prices/bars'), movement: await import('@/lib/prices/movement'), store: await import('@/lib/store') };
});
afterAll(() => fake.close());

const ny = (local: string) => Date.parse(local);
const GRAMS_PER_OZ = 31.1034768;
const OZ_PER_KG = 32.1507466;
const round = (n: number, d: number) => Number(n.toFixed(d));
const liveFx: Record<string, number> = fixture('er-api-latest-USD.json').rates;
const oldFx: Record<string, number> = fixture('er-api-latest-USD-2024-08-19.json').rates;
const served: number = fixture('goldapi-price-XAU.json').price;

const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });
const bars = (from: string, to: string) => lib.store.getStore().bars('daily:xau', from, to);
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met in time');
}
const importGold = (dates: string[]) => lib.store.getStore().importBars('daily:xau', fixtureBars(dates));

describe('change', () => {
  it('a deployment with no earlier bar: unavailable, every number null', async () => {
    const c = await lib.movement.movement(
      'gold',
      { priceUsdOz: served, currency: 'USD', rate: 1, fxFresh: true, unit: 'oz' },
      ny('2026-02-03T10:00:00-05:00'),
    );
    expect(c).toEqual({
      state: 'unavailable',
      session_date: '2026-02-03',
      open: null,
      high: null,
      low: null,
      previous_close: null,
      previous_close_date: null,
      change: null,
      change_pct: null,
      fx_basis: null,
      from_metal: null,
      from_currency: null,
    });
  });

  it('after an imported previous bar: exact previous close, change and percent in USD/oz, EUR/gram and INR/kg, at the current FX table', async () => {
    await importGold(['2026-03-02']);
    const [prev] = fixtureBars(['2026-03-02']);
    const now = ny('2026-03-03T10:00:00-05:00');
    for (const [currency, unit, perOz, decimals] of [
      ['USD', 'oz', 1, 2],
      ['EUR', 'gram', 1 / GRAMS_PER_OZ, 4],
      ['INR', 'kg', OZ_PER_KG, 2],
    ] as const) {
      const rate = currency === 'USD' ? 1 : liveFx[currency];
      const c = await lib.movement.movement('gold', { priceUsdOz: served, currency, rate, fxFresh: true, unit }, now);
      const price = served * rate * perOz;
      const previous = prev.c * rate * perOz;
      // The figures shown add up: change is the shown price minus the shown previous close.
      const change = round(round(price, decimals) - round(previous, decimals), decimals);
      const change_pct = round(((round(price, decimals) - round(previous, decimals)) / round(previous, decimals)) * 100, 2);
      expect(c).toEqual({
        state: 'ok',
        session_date: '2026-03-03',
        open: null,
        high: null,
        low: null,
        previous_close: round(previous, decimals),
        previous_close_date: '2026-03-02',
        change,
        change_pct,
        fx_basis: 'current',
        // Without the rate at that close the change cannot be split, except in USD, where no rate enters.
        from_metal: currency === 'USD' ? { amount: change, pct: change_pct } : null,
        from_currency: currency === 'USD' ? { amount: 0, pct: 0 } : null,
      });
    }
  });

  it("after a recorded previous bar: the previous close converted at that session's closing FX table", async () => {
    const [a, b] = fixtureBars(['2026-03-04', '2026-03-05']).map((r) => r.c);
    lib.bars.recordServed('gold', fresh(a, ny('2026-03-04T09:00:00-05:00')));
    lib.bars.recordServed('gold', fresh(b, ny('2026-03-04T16:50:00-05:00')));
    await until(
      () => lib.bars.closeFx('2026-03-04'),
      (fx) => fx !== null,
    );
    await until(
      () => bars('2026-03-04', '2026-03-04'),
      (got) => got[0]?.n === 2,
    );
    // Today's table differs from the one recorded at the close: EUR converts at the recorded one.
    const c = await lib.movement.movement(
      'gold',
      { priceUsdOz: served, currency: 'EUR', rate: oldFx.EUR, fxFresh: true, unit: 'oz' },
      ny('2026-03-05T10:00:00-05:00'),
    );
    const previous = b * liveFx.EUR;
    expect(c).toMatchObject({
      state: 'ok',
      previous_close_date: '2026-03-04',
      previous_close: round(previous, 2),
      change: round(round(served * oldFx.EUR, 2) - round(previous, 2), 2),
      change_pct: round(((round(served * oldFx.EUR, 2) - round(previous, 2)) / round(previous, 2)) * 100, 2),
      fx_basis: 'close',
    });
  });

  it("while the market is closed: the last session's close against the one before, with that session's range", async () => {
    await importGold(['2026-03-12', '2026-03-13']);
    const [thu, fri] = fixtureBars(['2026-03-12', '2026-03-13']);
    const c = await lib.movement.movement(
      'gold',
      { priceUsdOz: fri.c, currency: 'USD', rate: 1, fxFresh: true, unit: 'oz' },
      ny('2026-03-14T12:00:00-04:00'),
    );
    expect(c).toEqual({
      state: 'ok',
      session_date: '2026-03-13',
      open: round(fri.o, 2),
      high: round(fri.h, 2),
      low: round(fri.l, 2),
      previous_close: round(thu.c, 2),
      previous_close_date: '2026-03-12',
      change: round(round(fri.c, 2) - round(thu.c, 2), 2),
      change_pct: round(((round(fri.c, 2) - round(thu.c, 2)) / round(thu.c, 2)) * 100, 2),
      fx_basis: 'current',
      from_metal: {
        amount: round(round(fri.c, 2) - round(thu.c, 2), 2),
        pct: round(((round(fri.c, 2) - round(thu.c, 2)) / round(thu.c, 2)) * 100, 2),
      },
      from_currency: { amount: 0, pct: 0 },
    });
  });
});

describe('folding served prices into bars', () => {
  it('a sequence across two sessions gives open, high, low, close and count; each observation once; stale and closed fold nothing', async () => {
    const day1 = fixtureBars(['2026-03-17'])[0];
    const day2 = fixtureBars(['2026-03-18'])[0];
    // Real prices of each day in the order open, high, low, close, two minutes apart (the last of day 1 read between samples).
    const seq = (b: typeof day1, start: string) => [b.o, b.h, b.l, b.c].map((p, i) => ({ p, t: ny(start) + i * 120_000 }));
    for (const { p, t } of seq(day1, '2026-03-17T09:00:00-04:00')) {
      lib.bars.recordServed('gold', fresh(p, t));
      // The same observation read again by later requests is not folded again.
      lib.bars.recordServed('gold', fresh(p, t));
    }
    // A stale reading (both sources down) and a reading while the market is closed change nothing.
    lib.bars.recordServed('gold', { ...fresh(served, ny('2026-03-17T10:00:00-04:00')), status: 'stale' });
    lib.bars.recordServed('gold', fresh(served, ny('2026-03-17T17:30:00-04:00')));
    for (const { p, t } of seq(day2, '2026-03-17T18:05:00-04:00')) lib.bars.recordServed('gold', fresh(p, t));
    const got = await until(
      () => bars('2026-03-17', '2026-03-18'),
      (b) => b.length === 2 && b[1].n === 4,
    );
    expect(got.map(({ d, o, h, l, c, n, origin }) => ({ d, o, h, l, c, n, origin }))).toEqual([
      { d: '2026-03-17', o: day1.o, h: day1.h, l: day1.l, c: day1.c, n: 4, origin: 'recorded' },
      { d: '2026-03-18', o: day2.o, h: day2.h, l: day2.l, c: day2.c, n: 4, origin: 'recorded' },
    ]);
  });
});
