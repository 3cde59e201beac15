import { describe, expect, it } from 'vitest';
import { historyStats, periodOf } from '@/lib/series/history-stats';
import { minusDays, round, rows } from './fixture';

// Step 5, statistics and period: of the whole series from its unrounded points, and of the points answered.

const last = rows[rows.length - 1];

describe('history step 5: statistics and period', () => {
  it('52-week high and low, and the 1-year return, from the fixture’s own rows', () => {
    const s = historyStats(rows);
    const year = rows.filter((r) => r.d >= minusDays(last.d, 365));
    expect(s.high_52w).toBe(round(Math.max(...year.map((r) => r.h)), 2));
    expect(s.low_52w).toBe(round(Math.min(...year.map((r) => r.l)), 2));
    const yearAgo = rows.filter((r) => r.d <= minusDays(last.d, 365)).pop()!;
    expect(s.return_1y_pct).toBe(round((last.c / yearAgo.c - 1) * 100, 2));
    const prevYearEnd = rows.filter((r) => r.d < `${last.d.slice(0, 4)}-01-01`).pop()!;
    expect(s.return_ytd_pct).toBe(round((last.c / prevYearEnd.c - 1) * 100, 2));
    expect(s.ranges.day).toEqual({ low: round(last.l, 2), high: round(last.h, 2) });
  });

  it('rounds to the decimals asked (a gram’s four)', () => {
    const grams = rows.map((r) => ({ d: r.d, c: r.c / 31.1034768, h: r.h / 31.1034768, l: r.l / 31.1034768 }));
    const year = grams.filter((r) => r.d >= minusDays(last.d, 365));
    expect(historyStats(grams, 4).high_52w).toBe(round(Math.max(...year.map((r) => r.h)), 4));
  });

  it('the period of the points answered: first and last close, their change, the extremes', () => {
    const points = rows.slice(-60).map((r) => ({ d: r.d, c: round(r.c, 2), h: round(r.h, 2), l: round(r.l, 2) }));
    const p = periodOf(points, 'oz');
    const first = points[0].c;
    const lastC = points[points.length - 1].c;
    expect(p).toEqual({
      from: points[0].d,
      to: points[points.length - 1].d,
      first,
      last: lastC,
      change: round(lastC - first, 2),
      change_pct: round((lastC / first - 1) * 100, 2),
      high: Math.max(...points.map((x) => x.h)),
      low: Math.min(...points.map((x) => x.l)),
    });
  });

  it('no points: a period of nulls', () => {
    expect(periodOf([], 'oz')).toEqual({ from: null, to: null, first: null, last: null, change: null, change_pct: null, high: null, low: null });
  });
});
