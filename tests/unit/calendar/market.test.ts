import { describe, expect, it } from 'vitest';
import { easterSunday, marketState } from '@/lib/calendar/market';

// The market calendar at its edges. Instants are written in New York local time with their UTC
// offset (-05:00 standard time, -04:00 daylight saving time); next_change is checked as UTC.

const at = (local: string) => marketState(Date.parse(local));
const utc = (local: string) => new Date(Date.parse(local)).toISOString();

describe('weekend edges, winter and summer time', () => {
  it.each([
    ['winter', '2026-01-16', '2026-01-18', '2026-01-19', '-05:00'],
    ['summer', '2026-07-17', '2026-07-19', '2026-07-20', '-04:00'],
  ])('%s: Friday 16:59 open, 17:00 closed until Sunday 18:00', (_, fri, sun, mon, off) => {
    expect(at(`${fri}T16:59:00${off}`)).toEqual({ status: 'open', reason: null, next_change: utc(`${fri}T17:00:00${off}`) });
    expect(at(`${fri}T16:59:59${off}`).next_change).toBe(utc(`${fri}T17:00:00${off}`));
    expect(at(`${fri}T17:00:00${off}`)).toEqual({ status: 'closed', reason: 'weekend', next_change: utc(`${sun}T18:00:00${off}`) });
    expect(at(`${sun}T17:59:00${off}`)).toEqual({ status: 'closed', reason: 'weekend', next_change: utc(`${sun}T18:00:00${off}`) });
    expect(at(`${sun}T18:00:00${off}`)).toEqual({ status: 'open', reason: null, next_change: utc(`${mon}T17:00:00${off}`) });
  });

  it('Saturday is closed all day', () => {
    expect(at('2026-11-28T00:00:00-05:00')).toMatchObject({ status: 'closed', reason: 'weekend', next_change: '2026-11-29T23:00:00.000Z' });
    expect(at('2026-11-28T23:59:00-05:00')).toMatchObject({ status: 'closed', reason: 'weekend' });
  });
});

describe('daylight-saving switch weekends', () => {
  it('spring forward (Sunday 8 March 2026): closes 17:00 EST Friday, reopens 18:00 EDT Sunday', () => {
    expect(at('2026-03-06T17:00:00-05:00').next_change).toBe('2026-03-08T22:00:00.000Z');
    expect(at('2026-03-08T17:59:00-04:00')).toMatchObject({ status: 'closed', reason: 'weekend' });
    expect(at('2026-03-08T18:00:00-04:00')).toEqual({ status: 'open', reason: null, next_change: '2026-03-09T21:00:00.000Z' });
  });

  it('fall back (Sunday 1 November 2026): closes 17:00 EDT Friday, reopens 18:00 EST Sunday', () => {
    expect(at('2026-10-30T16:59:00-04:00').next_change).toBe('2026-10-30T21:00:00.000Z');
    expect(at('2026-10-30T17:00:00-04:00').next_change).toBe('2026-11-01T23:00:00.000Z');
    expect(at('2026-11-01T18:00:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2026-11-02T22:00:00.000Z' });
  });
});

describe('daily break Monday to Thursday', () => {
  it('17:00–18:00 closed, open either side', () => {
    expect(at('2026-11-24T16:59:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2026-11-24T22:00:00.000Z' });
    expect(at('2026-11-24T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'daily_break', next_change: '2026-11-24T23:00:00.000Z' });
    expect(at('2026-11-24T17:59:00-05:00')).toMatchObject({ status: 'closed', reason: 'daily_break' });
    expect(at('2026-11-24T18:00:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2026-11-25T22:00:00.000Z' });
    expect(at('2026-07-13T17:30:00-04:00')).toEqual({ status: 'closed', reason: 'daily_break', next_change: '2026-07-13T22:00:00.000Z' });
  });
});

describe('holidays', () => {
  it('Christmas on a Thursday (2025): closed 24 Dec 17:00 until 25 Dec 18:00, holiday before daily break', () => {
    expect(at('2025-12-24T16:59:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2025-12-24T22:00:00.000Z' });
    expect(at('2025-12-24T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2025-12-25T23:00:00.000Z' });
    expect(at('2025-12-25T17:30:00-05:00')).toMatchObject({ status: 'closed', reason: 'holiday' });
    expect(at('2025-12-25T18:00:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2025-12-26T22:00:00.000Z' });
  });

  it('Christmas on a Friday (2026) runs into the weekend: reopens Sunday 18:00', () => {
    expect(at('2026-12-24T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2026-12-27T23:00:00.000Z' });
    expect(at('2026-12-25T17:30:00-05:00')).toMatchObject({ reason: 'holiday' });
    expect(at('2026-12-25T18:00:00-05:00')).toEqual({ status: 'closed', reason: 'weekend', next_change: '2026-12-27T23:00:00.000Z' });
  });

  it('New Year: 31 Dec 2025 17:00 until 1 Jan 2026 18:00', () => {
    expect(at('2025-12-31T16:59:00-05:00')).toMatchObject({ status: 'open', next_change: '2025-12-31T22:00:00.000Z' });
    expect(at('2025-12-31T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2026-01-01T23:00:00.000Z' });
    expect(at('2026-01-01T00:00:00-05:00')).toMatchObject({ status: 'closed', reason: 'holiday' });
    expect(at('2026-01-01T18:00:00-05:00')).toEqual({ status: 'open', reason: null, next_change: '2026-01-02T22:00:00.000Z' });
  });

  it('a holiday on a Monday (25 Dec 2023): Sunday does not open, the market reopens Monday 18:00', () => {
    expect(at('2023-12-22T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'weekend', next_change: '2023-12-25T23:00:00.000Z' });
    expect(at('2023-12-24T17:00:00-05:00')).toMatchObject({ status: 'closed', reason: 'holiday' });
    expect(at('2023-12-24T18:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2023-12-25T23:00:00.000Z' });
    expect(at('2024-01-01T12:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2024-01-01T23:00:00.000Z' });
  });

  it('a holiday on a weekend (25 Dec 2027 and 1 Jan 2028 on Saturdays): holiday is the reason, Sunday 18:00 opens', () => {
    expect(at('2027-12-24T17:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2027-12-26T23:00:00.000Z' });
    expect(at('2027-12-25T12:00:00-05:00')).toMatchObject({ reason: 'holiday' });
    expect(at('2027-12-26T12:00:00-05:00')).toMatchObject({ reason: 'weekend' });
    expect(at('2028-01-01T12:00:00-05:00')).toEqual({ status: 'closed', reason: 'holiday', next_change: '2028-01-02T23:00:00.000Z' });
    // 25 Dec 2022 was a Sunday: the holiday ends at 18:00, when the week opens anyway.
    expect(at('2022-12-24T12:00:00-05:00')).toMatchObject({ reason: 'weekend' });
    expect(at('2022-12-24T17:00:00-05:00')).toMatchObject({ reason: 'holiday' });
    expect(at('2022-12-25T18:00:00-05:00')).toMatchObject({ status: 'open', next_change: '2022-12-26T22:00:00.000Z' });
  });

  it.each([
    ['2024-03-29', '2024-03-28', '2024-03-31'],
    ['2025-04-18', '2025-04-17', '2025-04-20'],
    ['2026-04-03', '2026-04-02', '2026-04-05'],
    ['2027-03-26', '2027-03-25', '2027-03-28'],
    ['2030-04-19', '2030-04-18', '2030-04-21'],
  ])('Good Friday %s: closed from Thursday 17:00 through the weekend', (friday, thursday, sunday) => {
    expect(at(`${thursday}T16:59:00-04:00`)).toEqual({ status: 'open', reason: null, next_change: utc(`${thursday}T17:00:00-04:00`) });
    expect(at(`${thursday}T17:00:00-04:00`)).toEqual({ status: 'closed', reason: 'holiday', next_change: utc(`${sunday}T18:00:00-04:00`) });
    expect(at(`${friday}T12:00:00-04:00`)).toMatchObject({ status: 'closed', reason: 'holiday' });
    expect(at(`${friday}T18:00:00-04:00`)).toMatchObject({ status: 'closed', reason: 'weekend' });
  });

  it('computes Easter Sunday', () => {
    const iso = (y: number) => new Date(easterSunday(y)).toISOString().slice(0, 10);
    expect([2000, 2008, 2011, 2019, 2024, 2038].map(iso)).toEqual([
      '2000-04-23',
      '2008-03-23',
      '2011-04-24',
      '2019-04-21',
      '2024-03-31',
      '2038-04-25',
    ]);
  });
});
