import { beforeEach, describe, expect, it } from 'vitest';
import { seriesCache } from '@/lib/series/cache-budget';
import { viewOf, type Source } from '@/lib/series/history-convert';
import type { RawPoint } from '@/lib/series/history-points';
import { eurOn, eurSeries, GRAMS_PER_OZ, round, rows } from './fixture';

// Step 2, convert: a series in a currency and unit, each point at the rate of its own date, made once per version.

const raw: RawPoint[] = rows.map((r) => ({ d: r.d, c: r.c, h: r.h, l: r.l }));
const usdPoints = raw.map((p) => ({ d: p.d, c: round(p.c, 2), h: round(p.h!, 2), l: round(p.l!, 2) }));
const source: Source = { kind: 'futures', key: 'test-futures', raw, usd: { points: usdPoints }, dates: raw.map((p) => p.d) };

beforeEach(() => seriesCache().clear());

describe('history step 2: convert', () => {
  it('USD per troy ounce is the series as held, not a copy', () => {
    const v = viewOf(source, null, 'oz', null);
    expect(v.points).toBe(usdPoints);
    expect(v.dates).toBe(source.dates);
  });

  it('EUR per gram: each close × its date’s rate ÷ grams per ounce, at 4 decimals, with the rate and its date', () => {
    const v = viewOf(source, eurSeries, 'gram', null);
    // The fixture's EUR rates start 2007-06-22: the gold rows before it are left out.
    const firstRate = eurSeries.d[0];
    expect(v.dates[0]).toBe(rows.find((r) => r.d >= firstRate)!.d);
    for (const k of [0, 100, 1000, v.points.length - 1]) {
      const p = v.points[k];
      const row = rows.find((r) => r.d === p.d)!;
      const { rate, on } = eurOn(p.d);
      expect(p.c).toBe(round((row.c * rate) / GRAMS_PER_OZ, 4));
      expect(p.h).toBe(round((row.h * rate) / GRAMS_PER_OZ, 4));
      expect(p.fx).toBe(rate);
      expect(p.fx_d).toBe(on === p.d ? undefined : on);
    }
  });

  it('made once while the budget holds it; made again, equal, after it is let go', () => {
    const a = viewOf(source, eurSeries, 'kg', null);
    expect(viewOf(source, eurSeries, 'kg', null)).toBe(a);
    seriesCache().clear();
    const b = viewOf(source, eurSeries, 'kg', null);
    expect(b).not.toBe(a);
    const { rawOf: rawA, ...heldA } = a;
    const { rawOf: rawB, ...heldB } = b;
    expect(heldB).toEqual(heldA);
    expect(rawB(0, b.dates.length)).toEqual(rawA(0, a.dates.length));
  });

  it('a currency that ended: no point after its last rate (`until`)', () => {
    const v = viewOf(source, eurSeries, 'oz', '2012-12-31');
    expect(v.dates[v.dates.length - 1]).toBe(rows.filter((r) => r.d <= '2012-12-31').pop()!.d);
  });
});
