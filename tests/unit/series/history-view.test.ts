import { describe, expect, it } from 'vitest';
import { convertDaily, convertMonthly, groupPoints, lastOnOrBefore, periodOf, type RawPoint } from '@/lib/series/history-view';
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
    );
    expect(out[0].d).toBe('2020-01-06');
    const gap = series((d) => d !== '2020-01-08');
    const jan8 = convertDaily([rows.find((r) => r.d === '2020-01-08')!], gap, 'oz')[0];
    expect(jan8).toMatchObject({ fx: eurRates.get('2020-01-07'), fx_d: '2020-01-07' });
    expect(jan8.c).toBe(rows.find((r) => r.d === '2020-01-08')!.c * eurRates.get('2020-01-07')!);
  });

  it('a month with no rate of its own takes the last rate before it, named by fx_d', () => {
    const fx = series((d) => !d.startsWith('2020-02'));
    const [feb] = convertMonthly([{ d: '2020-02-01', c: rows.find((r) => r.d === '2020-02-03')!.c }], fx, 'oz');
    const lastJan = [...eurRates.keys()].filter((d) => d < '2020-02-01').pop()!;
    expect(feb).toMatchObject({ fx: eurRates.get(lastJan), fx_d: lastJan });
  });

  it('lastOnOrBefore and periodOf', () => {
    const dates = rows.map((r) => r.d);
    expect(dates[lastOnOrBefore(dates, '2026-04-12')]).toBe('2026-04-10');
    expect(lastOnOrBefore(dates, '2000-01-01')).toBe(-1);
    expect(periodOf([], 'oz')).toMatchObject({ from: null, change: null });
  });
});
