import { describe, expect, it } from 'vitest';
import { sessionAt } from '@/lib/calendar/market';

// The session calendar of decisions §15 at its edges: which session a moment belongs to, and its date
// (the New York date on which it closes; while closed, the last session that closed). Instants are
// New York local time with their UTC offset (-05:00 standard, -04:00 daylight saving).

const at = (local: string) => sessionAt(Date.parse(local));

describe('weekdays: the close at 17:00 and the open at 18:00', () => {
  it('16:59 belongs to the session closing that day; 17:00 is closed with that same session the last one', () => {
    expect(at('2026-11-24T16:59:00-05:00')).toEqual({ date: '2026-11-24', open: true });
    expect(at('2026-11-24T17:00:00-05:00')).toEqual({ date: '2026-11-24', open: false });
  });

  it("17:59 is still the break after Tuesday's session; 18:00 opens Wednesday's", () => {
    expect(at('2026-11-24T17:59:00-05:00')).toEqual({ date: '2026-11-24', open: false });
    expect(at('2026-11-24T18:00:00-05:00')).toEqual({ date: '2026-11-25', open: true });
    expect(at('2026-11-25T00:30:00-05:00')).toEqual({ date: '2026-11-25', open: true });
  });

  it('the same edges in summer time', () => {
    expect(at('2026-07-14T16:59:00-04:00')).toEqual({ date: '2026-07-14', open: true });
    expect(at('2026-07-14T17:00:00-04:00')).toEqual({ date: '2026-07-14', open: false });
    expect(at('2026-07-14T18:00:00-04:00')).toEqual({ date: '2026-07-15', open: true });
  });
});

describe('weekends', () => {
  it("Friday's close makes Friday the last session all weekend; Sunday 18:00 opens Monday's", () => {
    expect(at('2026-11-20T16:59:00-05:00')).toEqual({ date: '2026-11-20', open: true });
    expect(at('2026-11-20T17:00:00-05:00')).toEqual({ date: '2026-11-20', open: false });
    expect(at('2026-11-21T12:00:00-05:00')).toEqual({ date: '2026-11-20', open: false });
    expect(at('2026-11-22T17:59:00-05:00')).toEqual({ date: '2026-11-20', open: false });
    expect(at('2026-11-22T18:00:00-05:00')).toEqual({ date: '2026-11-23', open: true });
  });

  it('spring forward (8 March 2026): Sunday 18:00 EDT opens Monday 9 March', () => {
    expect(at('2026-03-08T03:30:00-04:00')).toEqual({ date: '2026-03-06', open: false });
    expect(at('2026-03-08T17:59:00-04:00')).toEqual({ date: '2026-03-06', open: false });
    expect(at('2026-03-08T18:00:00-04:00')).toEqual({ date: '2026-03-09', open: true });
  });

  it('fall back (1 November 2026): Friday 30 October is the last session; Sunday 18:00 EST opens Monday 2 November', () => {
    expect(at('2026-10-30T16:59:00-04:00')).toEqual({ date: '2026-10-30', open: true });
    expect(at('2026-11-01T01:30:00-05:00')).toEqual({ date: '2026-10-30', open: false });
    expect(at('2026-11-01T18:00:00-05:00')).toEqual({ date: '2026-11-02', open: true });
  });
});

describe('holidays', () => {
  it('Christmas on a Thursday (2025): Wednesday 24 December closes at 17:00, the next session is Friday 26th', () => {
    expect(at('2025-12-24T16:59:00-05:00')).toEqual({ date: '2025-12-24', open: true });
    expect(at('2025-12-25T12:00:00-05:00')).toEqual({ date: '2025-12-24', open: false });
    expect(at('2025-12-25T18:00:00-05:00')).toEqual({ date: '2025-12-26', open: true });
  });

  it('Good Friday 2026 (3 April): Thursday is the last session until Sunday 18:00 opens Monday', () => {
    expect(at('2026-04-02T16:59:00-04:00')).toEqual({ date: '2026-04-02', open: true });
    expect(at('2026-04-03T12:00:00-04:00')).toEqual({ date: '2026-04-02', open: false });
    expect(at('2026-04-04T12:00:00-04:00')).toEqual({ date: '2026-04-02', open: false });
    expect(at('2026-04-05T18:00:00-04:00')).toEqual({ date: '2026-04-06', open: true });
  });

  it('New Year on a Friday (2027): Thursday 31 December is the last session of 2026', () => {
    expect(at('2026-12-31T16:59:00-05:00')).toEqual({ date: '2026-12-31', open: true });
    expect(at('2027-01-01T12:00:00-05:00')).toEqual({ date: '2026-12-31', open: false });
    expect(at('2027-01-03T18:00:00-05:00')).toEqual({ date: '2027-01-04', open: true });
  });
});
