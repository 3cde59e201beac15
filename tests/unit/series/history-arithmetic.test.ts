import { describe, expect, it } from 'vitest';
import { convertDaily, convertMonthly } from '@/lib/series/history-convert';
import { groupPoints } from '@/lib/series/history-group';
import { lastOnOrBefore, type RawPoint } from '@/lib/series/history-points';
import { periodOf } from '@/lib/series/history-stats';
import type { FxSeries } from '@/lib/sources/fx-history';
import { ratesOf } from '../../support/fx-history';
import { longDailyRows } from '../../support/yahoo';

// The arithmetic of history answers on real rows (tests/fixtures/SOURCES.md): the broker's daily gold and the
// fake upstream's EUR rates per USD.

const rows: RawPoint[] = longDailyRows().map((r) => ({ d: r.d, o: r.o, c: r.c, h: r.h, l: r.l }));
const eurRates = ratesOf('EUR');
const series = (keep: (d: string) => boolean): FxSeries => {
  const d = [...eurRates.keys()].filter(keep);
  return { code: 'EUR', d, r: d.map((x) => eurRates.get(x)!), fetchedAt: 0 };
};

describe('history arithmetic', () => {
  it('an ISO week spanning New Year is one bar, dated its first trading day', () => {
    const span = rows.filter((r) => r.d >= '2019-12-30' && r.d <= '2020-01-10');
    const bars = groupPoints(span, 'week');
    const firstWeek = span.filter((r) => r.d <= '2020-01-03');
    expect(bars[0]).toEqual({
      d: firstWeek[0].d,
      o: firstWeek[0].o,
      c: firstWeek[firstWeek.length - 1].c,
      h: Math.max(...firstWeek.map((r) => r.h!)),
      l: Math.min(...firstWeek.map((r) => r.l!)),
      days: firstWeek.length,
    });
    expect(bars).toHaveLength(2);
  });

  it('points before the first rate are left out; a day without its own rate takes the last one before it', () => {
    const fx = series((d) => d >= '2020-01-06');
    const out = convertDaily(
      rows.filter((r) => r.d >= '2020-01-01' && r.d <= '2020-01-31'),
      fx,
      'oz',
    ).points;
    expect(out[0].d).toBe('2020-01-06');
    const gap = series((d) => d !== '2020-01-08');
    const jan8 = convertDaily([rows.find((r) => r.d === '2020-01-08')!], gap, 'oz').points[0];
    expect(jan8).toMatchObject({ fx: eurRates.get('2020-01-07'), fx_d: '2020-01-07' });
    expect(jan8.c).toBe(rows.find((r) => r.d === '2020-01-08')!.c * eurRates.get('2020-01-07')!);
  });

  it('no point at a rate more than 7 days older than it: a gap leaves its points out and names them; until ends the series', () => {
    // Rates missing from 2020-03-02 to 2020-03-20: the last before is Friday 2020-02-28.
    const fx = series((d) => d < '2020-03-02' || d > '2020-03-20');
    const days = rows.filter((r) => r.d >= '2020-02-24' && r.d <= '2020-03-31');
    const { points, leftOut } = convertDaily(days, fx, 'oz');
    // Up to 7 days after 2020-02-28 (through 2020-03-06) converted at its rate, later days until the 23rd left out.
    expect(leftOut).toEqual(days.filter((r) => r.d > '2020-03-06' && r.d < '2020-03-23').map((r) => r.d));
    expect(points.find((p) => p.d === '2020-03-06')).toMatchObject({ fx_d: '2020-02-28' });
    expect(points.map((p) => p.d)).toEqual(days.filter((r) => !leftOut.includes(r.d)).map((r) => r.d));
    const ended = convertDaily(
      days,
      series(() => true),
      'oz',
      '2020-03-10',
    );
    expect(ended.points.at(-1)!.d).toBe(days.filter((r) => r.d <= '2020-03-10').at(-1)!.d);
    expect(ended.leftOut).toEqual([]);
  });

  it('a month without a rate of its own is left out (a gap of four weeks or more), not converted at an older rate', () => {
    const fx = series((d) => !d.startsWith('2020-02'));
    // Each month's close taken from a real day of it: only which months are converted matters here.
    const months = ['2020-01', '2020-02', '2020-03'].map((m) => ({ d: `${m}-01`, c: rows.find((r) => r.d.startsWith(m))!.c }));
    const { points, leftOut } = convertMonthly(months, fx, 'oz');
    expect(points.map((p) => p.d)).toEqual(['2020-01-01', '2020-03-01']);
    expect(leftOut).toEqual(['2020-02-01']);
    expect(convertMonthly(months, fx, 'oz', '2020-01-31').points.map((p) => p.d)).toEqual(['2020-01-01']);
  });

  it('lastOnOrBefore and periodOf', () => {
    const dates = rows.map((r) => r.d);
    expect(dates[lastOnOrBefore(dates, '2026-04-12')]).toBe('2026-04-10');
    expect(lastOnOrBefore(dates, '2000-01-01')).toBe(-1);
    expect(periodOf([], 'oz')).toMatchObject({ from: null, change: null });
  });
});
