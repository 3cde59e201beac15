import { describe, expect, it } from 'vitest';
import { sessionDates } from '@/lib/calendar/market';
import { latencyBin, LATENCY_BOUNDS_MS, type UpstreamRecord } from '@/lib/sources/outcomes';
import { quantile, upstreamStatus } from '@/lib/status/upstream-state';

// One upstream's line of the status answer from its record: windows, states and latency, with times chosen here.

const NOW = Date.parse('2026-11-26T12:00:00Z');
const MIN = 60_000;
const ENTRY = { id: 'gold-api', name: 'gold-api.com', role: 'test' };
const empty: UpstreamRecord = { minutes: [], hours: [], lastOk: null, lastFailure: null };

describe('upstream state', () => {
  it('unused with no attempt; availability counts only what lies in each window', () => {
    expect(upstreamStatus(ENTRY, empty, NOW)).toMatchObject({
      state: 'unused',
      last_success: null,
      last_failure: null,
      availability: { h24: { ratio: null, successes: 0, attempts: 0 }, d7: { ratio: null, successes: 0, attempts: 0 } },
      latency_ms: { p50: null, p95: null, samples: 0 },
    });
    const record: UpstreamRecord = {
      ...empty,
      minutes: [
        { at: NOW - 8 * 24 * 60 * MIN, counts: { ok: 50 } }, // older than 7 days: not counted
        { at: NOW - 3 * 24 * 60 * MIN, counts: { ok: 6, http: 2 } }, // in 7 days only
        { at: NOW - 10 * MIN, counts: { ok: 19, timeout: 1 } },
      ],
      lastOk: { as_of: NOW - 10 * MIN, kind: null, status: 200 },
      lastFailure: { as_of: NOW - 3 * 24 * 60 * MIN, kind: 'http', status: 503 },
    };
    const s = upstreamStatus(ENTRY, record, NOW);
    expect(s.availability.h24).toEqual({ ratio: 0.95, successes: 19, attempts: 20 });
    expect(s.availability.d7).toEqual({ ratio: 0.8929, successes: 25, attempts: 28 });
    expect(s.last_failure).toEqual({ at: new Date(NOW - 3 * 24 * 60 * MIN).toISOString(), kind: 'http', status: 503 });
    // The latest attempt succeeded and 95% of the last hour did.
    expect(s.state).toBe('ok');
  });

  it('degraded below 95% in the last hour or when the latest attempt failed; down after 15 minutes without a success', () => {
    const lastHour = (ok: number, failed: number): UpstreamRecord => ({
      ...empty,
      minutes: [{ at: NOW - 5 * MIN, counts: { ok, network: failed } }],
      lastOk: { as_of: NOW - 5 * MIN, kind: null, status: 200 },
      lastFailure: { as_of: NOW - 6 * MIN, kind: 'network', status: null },
    });
    expect(upstreamStatus(ENTRY, lastHour(18, 2), NOW).state).toBe('degraded');
    expect(upstreamStatus(ENTRY, lastHour(19, 1), NOW).state).toBe('ok');
    const failedLast = (sinceOkMin: number): UpstreamRecord => ({
      ...lastHour(100, 1),
      lastOk: { as_of: NOW - sinceOkMin * MIN, kind: null, status: 200 },
      lastFailure: { as_of: NOW - MIN, kind: 'timeout', status: null },
    });
    expect(upstreamStatus(ENTRY, failedLast(10), NOW).state).toBe('degraded');
    expect(upstreamStatus(ENTRY, failedLast(16), NOW).state).toBe('down');
    expect(upstreamStatus(ENTRY, { ...empty, lastFailure: { as_of: NOW - MIN, kind: 'invalid', status: 200 } }, NOW).state).toBe('down');
  });

  it('latency: the upper bound of the bin holding p50 and p95, over the hours of the last 24', () => {
    const bins = (at: number, fill: Record<number, number>) => ({
      at,
      bins: LATENCY_BOUNDS_MS.map((_, i) => fill[i] ?? 0).concat(fill[LATENCY_BOUNDS_MS.length] ?? 0),
    });
    const record: UpstreamRecord = {
      ...empty,
      hours: [bins(NOW - 30 * 60 * MIN, { 11: 1000 }), bins(NOW - 2 * 60 * MIN, { [latencyBin(80)]: 90, [latencyBin(1200)]: 10 })],
      lastOk: { as_of: NOW - MIN, kind: null, status: 200 },
    };
    expect(upstreamStatus(ENTRY, record, NOW).latency_ms).toEqual({ p50: 100, p95: 1500, samples: 100 });
    expect(quantile([0, 0, 1], 0.5)).toBe(LATENCY_BOUNDS_MS[2]);
    expect(latencyBin(60_000)).toBe(LATENCY_BOUNDS_MS.length);
  });
});

describe('session dates', () => {
  it('the sessions that closed, oldest first: no weekends, no Good Friday', () => {
    expect(sessionDates('2026-04-07', 5)).toEqual(['2026-03-31', '2026-04-01', '2026-04-02', '2026-04-06', '2026-04-07']);
    expect(sessionDates('2026-11-23', 2)).toEqual(['2026-11-20', '2026-11-23']);
  });
});
