import { describe, expect, it } from 'vitest';
import { isSessionDate } from '@/lib/calendar/market';
import { daysBefore } from '@/lib/calendar/dates';
import { barsCover, MAX_MISSING_SESSIONS } from '@/lib/series/coverage';
import { fixtureText } from '../../support/fake-upstream';

// "The daily spot bars cover this range" (decisions §25), judged from the bars inside the window: the real
// dates of the broker's files (tests/fixtures), as an operator would import them, with holes cut where a
// recorder would have left them.

const datesOf = (file: string) =>
  fixtureText(file)
    .split(/\r?\n/)
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split(',')[0]);
const OLD = datesOf('gold-daily-ohlc-usd-2016-2019.csv');
const RECENT = datesOf('gold-daily-ohlc-usd.csv');
/** The files' last session, Thursday 16 April 2026: the charts' "today". */
const TODAY = '2026-04-16';
const window = (days: number) => ({ from: daysBefore(TODAY, days), to: TODAY });
/** The last week of sessions, as a deployment begun last week has recorded them. */
const LAST_WEEK = RECENT.filter((d) => d >= '2026-04-09');

describe('barsCover', () => {
  it('2016–2019 imported plus a week recorded: the week is covered, three months and a year are not', () => {
    const dates = [...OLD, ...LAST_WEEK];
    expect(dates[0] < window(92).from).toBe(true); // the first bar alone would say "covered"
    expect(barsCover(dates, window(7))).toBe(true);
    expect(barsCover(dates, window(31))).toBe(false);
    expect(barsCover(dates, window(92))).toBe(false);
    expect(barsCover(dates, window(366))).toBe(false);
    // Inside the imported years, where every session has its bar: covered.
    expect(barsCover(dates, { from: '2017-01-01', to: '2018-12-31' })).toBe(true);
  });

  it('every session of the last years: each range is covered', () => {
    for (const days of [7, 31, 92, 366, 1827]) expect(barsCover([...OLD, ...RECENT], { from: daysBefore(TODAY, days), to: TODAY })).toBe(true);
  });

  it('a hole of more than five sessions inside the window: not covered; a window after the hole: covered', () => {
    const holed = RECENT.filter((d) => d < '2026-02-02' || d > '2026-02-13'); // two weeks of February missing
    expect(barsCover(holed, window(92))).toBe(false);
    expect(barsCover(holed, window(31))).toBe(true);
  });

  it('five sessions missing is within the rule, six is not: between bars, at the start and at the end', () => {
    const march = RECENT.filter((d) => d >= '2026-03-02' && d <= '2026-03-31');
    const sessions = march.filter(isSessionDate);
    expect(sessions).toEqual(march); // the broker's rows are sessions
    const drop = (n: number) => march.filter((d) => !sessions.slice(10, 10 + n).includes(d));
    const w = { from: '2026-03-02', to: '2026-03-31' };
    expect(barsCover(drop(MAX_MISSING_SESSIONS), w)).toBe(true);
    expect(barsCover(drop(MAX_MISSING_SESSIONS + 1), w)).toBe(false);
    expect(barsCover(march.slice(5), w)).toBe(true);
    expect(barsCover(march.slice(6), w)).toBe(false);
    expect(barsCover(march.slice(0, -5), w)).toBe(true);
    expect(barsCover(march.slice(0, -6), w)).toBe(false);
  });

  it('weekends and the market’s holidays are no sessions: a window starting on Good Friday’s long weekend is covered from the Monday', () => {
    expect(isSessionDate('2026-04-03')).toBe(false); // Good Friday
    expect(isSessionDate('2025-12-25')).toBe(false);
    expect(isSessionDate('2026-04-04')).toBe(false);
    expect(isSessionDate('2026-04-06')).toBe(true);
    const from = RECENT.filter((d) => d >= '2026-04-06');
    expect(barsCover(from, { from: '2026-04-02', to: TODAY })).toBe(true);
  });

  it('no bar in the window: not covered', () => {
    expect(barsCover([], window(7))).toBe(false);
    expect(barsCover(OLD, window(7))).toBe(false);
  });
});
