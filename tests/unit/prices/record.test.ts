import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import type { Unit } from '@/lib/reference/units';
import { fixtureBars } from '../../support/bars';
import { FakeUpstream, fixture } from '../../support/fake-upstream';

// The service's own record under the edges of decisions §20, on the embedded store with a fixed clock:
// a fold whose write failed is written again by the next request serving the same price; the bars
// behind a change are held per session, so a read begun before the open never passes for the new
// session's; a failed read keeps the bars held; and one FX table converts both sides of a change, whose
// figures add up. Every price is real: the broker's daily rows in tests/fixtures and the FX tables.

let fake: FakeUpstream;
let lib: {
  bars: typeof import('@/lib/prices/bars');
  movement: typeof import('@/lib/prices/movement');
  store: typeof import('@/lib/store');
  units: typeof import('@/lib/reference/units');
  fallback: typeof import('@/lib/sources/fx-fallback');
};

beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-record-')) });
  lib = {
    bars: await import('@/lib/prices/bars'),
    movement: await import('@/lib/prices/movement'),
    store: await import('@/lib/store'),
    units: await import('@/lib/reference/units'),
    fallback: await import('@/lib/sources/fx-fallback'),
  };
});
afterAll(() => fake.close());

const ny = (local: string) => Date.parse(local);
const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });
const store = () => lib.store.getStore();
const bars = (from: string, to: string) => store().bars('daily:xau', from, to);
const importGold = (dates: string[]) => store().importBars('daily:xau', fixtureBars(dates));

describe('a fold whose write failed', () => {
  it('is written by the next request that serves the same observation, once; concurrent readers share one write', async () => {
    const [day] = fixtureBars(['2026-03-10']);
    const t = ny('2026-03-10T10:00:00-04:00');
    const s = store();
    const foldBar = s.foldBar.bind(s);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    s.foldBar = () => Promise.reject(new Error('disk I/O error'));
    try {
      const first = lib.bars.recordServed('gold', fresh(day.c, t));
      expect(first).not.toBeNull();
      // A second request serving the same observation meanwhile joins the write in flight.
      expect(lib.bars.recordServed('gold', fresh(day.c, t))).toBe(first);
      await first;
      expect(await bars('2026-03-10', '2026-03-10')).toEqual([]);
      expect(warn.mock.calls.flat().join('\n')).toContain('disk I/O error');
    } finally {
      s.foldBar = foldBar;
      warn.mockRestore();
    }
    const again = lib.bars.recordServed('gold', fresh(day.c, t));
    expect(again).not.toBeNull();
    await again;
    expect((await bars('2026-03-10', '2026-03-10')).map(({ c, n, origin }) => ({ c, n, origin }))).toEqual([{ c: day.c, n: 1, origin: 'recorded' }]);
    // Stored: the same observation is not written a third time.
    expect(lib.bars.recordServed('gold', fresh(day.c, t))).toBeNull();
  });
});

describe('the bars behind a change, across the open', () => {
  const usd = (priceUsdOz: number) => ({ priceUsdOz, currency: 'USD', rate: 1, fxFresh: true, unit: 'oz' as Unit });

  it('a read of the closing session still running when the next opens is never served as the new session', async () => {
    await importGold(['2026-03-23', '2026-03-24', '2026-03-25']);
    const [mon, tue, wed] = fixtureBars(['2026-03-23', '2026-03-24', '2026-03-25']);
    const s = store();
    const read = s.bars.bind(s);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    s.bars = async (...args) => {
      if (++calls === 1) await gate;
      return read(...args);
    };
    try {
      // 16:59 on Tuesday: Tuesday's session; its read hangs across 18:00, when Wednesday's opens.
      const beforeOpen = lib.movement.movement('gold', usd(tue.c), ny('2026-03-24T16:59:00-04:00'));
      const afterOpen = await lib.movement.movement('gold', usd(wed.c), ny('2026-03-24T18:01:00-04:00'));
      expect(afterOpen).toMatchObject({ session_date: '2026-03-25', previous_close_date: '2026-03-24', previous_close: tue.c, open: wed.o });
      release();
      expect(await beforeOpen).toMatchObject({ session_date: '2026-03-24', previous_close_date: '2026-03-23', previous_close: mon.c, open: tue.o });
      // Tuesday's read finishing late changes nothing for Wednesday.
      const later = await lib.movement.movement('gold', usd(wed.c), ny('2026-03-24T18:02:00-04:00'));
      expect(later).toMatchObject({ session_date: '2026-03-25', previous_close_date: '2026-03-24', open: wed.o });
    } finally {
      s.bars = read;
    }
  });

  it('a failed re-read keeps the bars held', async () => {
    const [, wed] = fixtureBars(['2026-03-24', '2026-03-25']);
    const at = ny('2026-03-25T10:00:00-04:00');
    const held = await lib.movement.movement('gold', usd(wed.c), at);
    expect(held).toMatchObject({ state: 'ok', previous_close_date: '2026-03-24' });
    const s = store();
    const read = s.bars.bind(s);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    process.env.CACHE_TTL_S = '1';
    try {
      await new Promise((r) => setTimeout(r, 1100));
      s.bars = () => Promise.reject(new Error('database is locked'));
      // Held bars are past their re-read time: this answer starts a re-read, which fails.
      expect(await lib.movement.movement('gold', usd(wed.c), at)).toEqual(held);
      await vi.waitFor(() => expect(warn.mock.calls.flat().join('\n')).toContain('database is locked'));
      expect(await lib.movement.movement('gold', usd(wed.c), at)).toEqual(held);
    } finally {
      s.bars = read;
      delete process.env.CACHE_TTL_S;
      warn.mockRestore();
    }
  });
});

describe('one FX basis, figures that add up', () => {
  const liveFx: Record<string, number> = fixture('er-api-latest-USD.json').rates;
  const cases: [string, Unit][] = [
    ['EUR', 'gram'],
    ['JPY', 'oz'],
  ];
  /** `x` in whole units of the last decimal shown: the figures must add up exactly there. */
  const scaled = (x: number, unit: Unit) => Math.round(x * 10 ** lib.units.UNIT_DECIMALS[unit]);

  it('a recorded close with its table, then only the bundled table in force: both sides at it, `current`, change = price − previous close', async () => {
    // Thursday's close recorded while the FX source answered: the closing table is kept with it.
    const [thu, fri] = fixtureBars(['2026-03-26', '2026-03-27']);
    const t = ny('2026-03-26T16:50:00-04:00');
    await lib.bars.recordServed('gold', fresh(thu.c, t));
    expect((await lib.bars.closeFx('2026-03-26'))?.rates.EUR).toBe(liveFx.EUR);
    // Friday, the FX source down: the bundled table is the one in force. Real prices above and below Thursday's close.
    const rising = [fri.o, fri.h, fri.l, fri.c].filter((p) => p > thu.c);
    const falling = [fri.o, fri.h, fri.l, fri.c].filter((p) => p < thu.c);
    expect(rising.length && falling.length).toBeTruthy();
    for (const [currency, unit] of cases) {
      const rate = lib.fallback.FX_FALLBACK.table[currency];
      for (const price of [rising[0], falling[0]]) {
        const c = await lib.movement.movement('gold', { priceUsdOz: price, currency, rate, fxFresh: false, unit }, ny('2026-03-27T10:00:00-04:00'));
        const shown = lib.units.round(lib.units.perUnit(price * rate, unit), lib.units.UNIT_DECIMALS[unit]);
        expect(c.fx_basis, `${currency}/${unit}`).toBe('current');
        expect(c.previous_close).toBe(lib.units.round(lib.units.perUnit(thu.c * rate, unit), lib.units.UNIT_DECIMALS[unit]));
        expect(scaled(c.change!, unit)).toBe(scaled(shown, unit) - scaled(c.previous_close!, unit));
        expect(Math.sign(c.change!)).toBe(price > thu.c ? 1 : -1);
      }
    }
  });

  it('with a fresh table in force: the previous close at its own closing table (`close`), and still change = price − previous close', async () => {
    const [thu, fri] = fixtureBars(['2026-03-26', '2026-03-27']);
    for (const [currency, unit] of cases) {
      for (const price of [fri.h, fri.l]) {
        const rate = liveFx[currency];
        const c = await lib.movement.movement('gold', { priceUsdOz: price, currency, rate, fxFresh: true, unit }, ny('2026-03-27T10:00:00-04:00'));
        const shown = lib.units.round(lib.units.perUnit(price * rate, unit), lib.units.UNIT_DECIMALS[unit]);
        expect(c.fx_basis).toBe('close');
        expect(c.previous_close).toBe(lib.units.round(lib.units.perUnit(thu.c * liveFx[currency], unit), lib.units.UNIT_DECIMALS[unit]));
        expect(scaled(c.change!, unit)).toBe(scaled(shown, unit) - scaled(c.previous_close!, unit));
      }
    }
  });
});

describe('rounding', () => {
  it('halves go away from zero on both sides', () => {
    const { round } = lib.units;
    expect([round(2.5, 0), round(-2.5, 0), round(1.005, 2), round(-1.005, 2), round(-0.004, 2)]).toEqual([3, -3, 1.01, -1.01, 0]);
    for (const x of [0.125, 10.06, 4505.755, 0.00005]) for (const d of [0, 2, 4]) expect(round(-x, d) + 0).toBe(-round(x, d) + 0);
  });
});
