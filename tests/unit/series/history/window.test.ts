import { describe, expect, it } from 'vitest';
import { historyRangeStart, leftOutIn, windowBounds } from '@/lib/series/history-window';
import { minusDays, rows } from './fixture';

// Step 3, window: which of a series' points a query asks for, as indexes into its dates.

const dates = rows.map((r) => r.d);
const latest = dates[dates.length - 1];
/** Index of the first date on or after `d`, by a plain scan. */
const firstFrom = (d: string) => dates.findIndex((x) => x >= d);
/** One past the index of the last date on or before `d`, by a plain scan. */
const endAt = (d: string) => dates.filter((x) => x <= d).length;

describe('history step 3: window', () => {
  it('a named range counts back from the latest date: 1y is 365 days, ytd 1 January, max everything', () => {
    expect(historyRangeStart('1y', latest)).toBe(minusDays(latest, 365));
    expect(historyRangeStart('ytd', latest)).toBe(`${latest.slice(0, 4)}-01-01`);
    expect(historyRangeStart('max', latest)).toBeUndefined();
    expect(windowBounds(dates, 'futures', { range: '1y' })).toEqual({ i: firstFrom(minusDays(latest, 365)), j: dates.length, named: true });
    expect(windowBounds(dates, 'futures', { range: 'max' })).toEqual({ i: 0, j: dates.length, named: true });
  });

  it('the default is 5 years of futures and all of any other series', () => {
    expect(windowBounds(dates, 'futures', {}).i).toBe(firstFrom(minusDays(latest, 1826)));
    expect(windowBounds(dates, 'spot', {}).i).toBe(0);
  });

  it('`to` alone counts the range (or the default) back from `to`, and is not a named window', () => {
    const to = '2015-06-30';
    expect(windowBounds(dates, 'futures', { to, range: '3m' })).toEqual({ i: firstFrom(minusDays(to, 91)), j: endAt(to), named: false });
    expect(windowBounds(dates, 'futures', { to })).toEqual({ i: firstFrom(minusDays(to, 1826)), j: endAt(to), named: false });
  });

  it('from and to: the dates between them, inclusive; from after the last date is empty', () => {
    const b = windowBounds(dates, 'futures', { from: '2010-01-01', to: '2010-12-31' });
    expect(dates.slice(b.i, b.j)).toEqual(dates.filter((d) => d >= '2010-01-01' && d <= '2010-12-31'));
    expect(b.named).toBe(false);
    const none = windowBounds(dates, 'futures', { from: minusDays(latest, -10) });
    expect(none.j - none.i).toBe(0);
  });

  it('counts only the left-out dates within the window', () => {
    const leftOut = ['2010-03-02', '2010-03-03', '2012-05-01'];
    expect(leftOutIn(leftOut, dates, 'futures', { from: '2010-01-01', to: '2010-12-31' })).toBe(2);
    expect(leftOutIn(leftOut, dates, 'futures', { range: 'max' })).toBe(3);
    expect(leftOutIn([], dates, 'futures', { range: 'max' })).toBe(0);
  });
});
