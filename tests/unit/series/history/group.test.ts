import { beforeEach, describe, expect, it } from 'vitest';
import { seriesCache } from '@/lib/series/cache-budget';
import { viewOf, type Source } from '@/lib/series/history-convert';
import { cutPoints } from '@/lib/series/history-group';
import type { RawPoint } from '@/lib/series/history-points';
import { round, rows } from './fixture';

// Step 4, group: a window's points, as monthly or weekly bars when asked; a named range kept, a dated window not.

const raw: RawPoint[] = rows.map((r) => ({ d: r.d, o: r.o, c: r.c, h: r.h, l: r.l }));
const usdPoints = raw.map((p) => ({ d: p.d, c: round(p.c, 2), h: round(p.h!, 2), l: round(p.l!, 2) }));
const source: Source = { kind: 'futures', key: 'test-group', raw, usd: { points: usdPoints }, dates: raw.map((p) => p.d) };
const indexOf = (d: string) => rows.findIndex((r) => r.d === d);

beforeEach(() => seriesCache().clear());

describe('history step 4: group', () => {
  it('monthly bars of 2010: open the first day’s, close the last’s, high and low the extremes, days counted', () => {
    const view = viewOf(source, null, 'oz', null);
    const year = rows.filter((r) => r.d.startsWith('2010'));
    const b = { i: indexOf(year[0].d), j: indexOf(year[year.length - 1].d) + 1, named: false };
    const bars = cutPoints(view, 'futures', 'oz', b, 'month');
    expect(bars).toHaveLength(12);
    const march = year.filter((r) => r.d.startsWith('2010-03'));
    expect(bars[2]).toEqual({
      d: march[0].d,
      o: round(march[0].o, 2),
      c: round(march[march.length - 1].c, 2),
      h: round(Math.max(...march.map((r) => r.h)), 2),
      l: round(Math.min(...march.map((r) => r.l)), 2),
      days: march.length,
    });
  });

  it('an ungrouped window is the view’s points between its bounds; the whole series is the view’s own list', () => {
    const view = viewOf(source, null, 'oz', null);
    const b = { i: 10, j: 20, named: false };
    expect(cutPoints(view, 'futures', 'oz', b, undefined)).toEqual(usdPoints.slice(10, 20));
    expect(cutPoints(view, 'futures', 'oz', { i: 0, j: rows.length, named: true }, undefined)).toBe(usdPoints);
  });

  it('a named range is cut once and kept; a dated window is cut for each request', () => {
    const view = viewOf(source, null, 'oz', null);
    const named = { i: rows.length - 250, j: rows.length, named: true };
    expect(cutPoints(view, 'futures', 'oz', named, 'week')).toBe(cutPoints(view, 'futures', 'oz', named, 'week'));
    const dated = { ...named, named: false };
    const a = cutPoints(view, 'futures', 'oz', dated, 'week');
    const b = cutPoints(view, 'futures', 'oz', dated, 'week');
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });
});
