import { describe, expect, it, vi } from 'vitest';
import { bankHolidays, isLondonBusinessDay, londonClock } from '@/lib/calendar/london-business-days';

// London business days (decisions §30) against the England and Wales bank holidays as published by the UK
// government (gov.uk/bank-holidays), substitute days included, and Europe/London's wall clock across daylight saving.

describe('England and Wales bank holidays', () => {
  it('2026 and 2027 are the published lists', () => {
    expect([...bankHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-04-03',
      '2026-04-06',
      '2026-05-04',
      '2026-05-25',
      '2026-08-31',
      '2026-12-25',
      // Boxing Day is a Saturday: its substitute is Monday the 28th.
      '2026-12-28',
    ]);
    expect([...bankHolidays(2027)].sort()).toEqual([
      '2027-01-01',
      '2027-03-26',
      '2027-03-29',
      '2027-05-03',
      '2027-05-31',
      '2027-08-30',
      // Christmas on a Saturday and Boxing Day on a Sunday: Monday 27th and Tuesday 28th.
      '2027-12-27',
      '2027-12-28',
    ]);
  });

  it('substitutes and one-off holidays of past years', () => {
    // New Year's Day on a Saturday (2022) and a Sunday (2023).
    expect(bankHolidays(2022).has('2022-01-03')).toBe(true);
    expect(bankHolidays(2023).has('2023-01-02')).toBe(true);
    // Christmas on a Sunday (2022): Boxing Day Monday, Christmas's substitute Tuesday.
    expect(bankHolidays(2022).has('2022-12-26')).toBe(true);
    expect(bankHolidays(2022).has('2022-12-27')).toBe(true);
    // The state funeral, the coronation, the Platinum Jubilee (spring holiday moved to 2 June, 3 June added), VE Day 2020.
    expect(bankHolidays(2022).has('2022-09-19')).toBe(true);
    expect(bankHolidays(2023).has('2023-05-08')).toBe(true);
    expect(bankHolidays(2022).has('2022-06-02')).toBe(true);
    expect(bankHolidays(2022).has('2022-06-03')).toBe(true);
    expect(bankHolidays(2022).has('2022-05-30')).toBe(false);
    expect(bankHolidays(2020).has('2020-05-08')).toBe(true);
    expect(bankHolidays(2020).has('2020-05-04')).toBe(false);
  });

  it('business days: weekdays that are not bank holidays', () => {
    expect(isLondonBusinessDay('2026-12-25')).toBe(false);
    expect(isLondonBusinessDay('2026-12-28')).toBe(false);
    expect(isLondonBusinessDay('2027-03-26')).toBe(false);
    expect(isLondonBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(isLondonBusinessDay('2026-11-29')).toBe(false); // Sunday
    expect(isLondonBusinessDay('2026-12-24')).toBe(true);
    expect(isLondonBusinessDay('2026-12-29')).toBe(true);
    expect(isLondonBusinessDay('2026-11-27')).toBe(true);
  });
});

describe('London wall clock', () => {
  it('GMT in winter, BST in summer', () => {
    expect(londonClock(Date.parse('2026-12-01T15:00:00Z'))).toEqual({ date: '2026-12-01', minute: 15 * 60 });
    expect(londonClock(Date.parse('2026-07-01T14:00:00Z'))).toEqual({ date: '2026-07-01', minute: 15 * 60 });
    // The night the clocks go forward (29 March 2026, 01:00 GMT becomes 02:00 BST), and 23:30 UTC in summer is the next London day.
    expect(londonClock(Date.parse('2026-03-29T01:30:00Z'))).toEqual({ date: '2026-03-29', minute: 2 * 60 + 30 });
    expect(londonClock(Date.parse('2026-07-01T23:30:00Z'))).toEqual({ date: '2026-07-02', minute: 30 });
  });
});

describe('the sampler’s next London time', () => {
  it('the next metal’s time on a business day, past weekends and bank holidays, in GMT and BST', async () => {
    vi.stubEnv('MARKET_CLOCK_OFFSET_S', '0');
    const { nextLondonTime } = await import('@/lib/prices/london-recording');
    const at = (iso: string) => new Date(nextLondonTime(Date.parse(iso))).toISOString();
    // Tuesday 14 April 2026, 10:00 BST: gold's 10:30; at 12:00 exactly, the next is platinum's and palladium's 14:00.
    expect(at('2026-04-14T10:00:00+01:00')).toBe('2026-04-14T09:30:00.000Z');
    expect(at('2026-04-14T12:00:00+01:00')).toBe('2026-04-14T13:00:00.000Z');
    // Thursday 2 April 2026 after 15:00: Good Friday, the weekend and Easter Monday pass; Tuesday 09:45 BST.
    expect(at('2026-04-02T16:00:00+01:00')).toBe('2026-04-07T08:45:00.000Z');
    // Christmas Eve 2026 after 15:00 GMT: the 25th, the weekend and the 28th (Boxing Day's substitute) pass.
    expect(at('2026-12-24T15:30:00Z')).toBe('2026-12-29T09:45:00.000Z');
    vi.unstubAllEnvs();
  });
});
