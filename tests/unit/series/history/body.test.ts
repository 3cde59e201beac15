import { describe, expect, it } from 'vitest';
import { keep } from '@/lib/series/cache-budget';
import { historyBody, historyJsonParts, type Parts } from '@/lib/series/history-body';
import { historyStats, periodOf } from '@/lib/series/history-stats';
import { eurSeries, round, rows } from './fixture';

// Step 6, body: the answer put together, and its JSON with the points' part encoded once per kept list.

const points = rows.slice(-20).map((r) => ({ d: r.d, c: round(r.c, 2), h: round(r.h, 2), l: round(r.l, 2) }));
const parts = (over: Partial<Parts> = {}): Parts => ({
  kind: 'futures',
  usd: { symbol: 'XAUUSD', source: 'COMEX gold futures GC=F' },
  points,
  stats: historyStats(rows),
  period: periodOf(points, 'oz'),
  group: undefined,
  code: 'USD',
  unit: 'oz',
  fx: null,
  data_state: { status: 'fresh', as_of: '2026-04-16T21:00:00.000Z', source: 'cache', age_seconds: 60 },
  now: Date.parse('2026-04-17T13:00:00Z'),
  ...over,
});

describe('history step 6: body', () => {
  it('names its series and interval, counts its points, says no currency or unit in USD per troy ounce', () => {
    const b = historyBody(parts());
    expect(b).toMatchObject({ symbol: 'XAUUSD', series: 'futures', interval: 'daily', count: 20, updated_at: '2026-04-17T13:00:00.000Z' });
    expect(b.points).toBe(points);
    expect(b.currency).toBeUndefined();
    expect(b.fx).toBeUndefined();
    expect(historyBody(parts({ group: 'week' })).interval).toBe('weekly');
    expect(historyBody(parts({ kind: 'monthly' })).interval).toBe('monthly');
    // Grouped answers say what their bars are made of: the monthly series' years are monthly averages.
    expect(historyBody(parts({ group: 'year' }))).toMatchObject({ interval: 'yearly', bars_of: 'daily' });
    expect(historyBody(parts({ kind: 'monthly', group: 'year' }))).toMatchObject({ interval: 'yearly', bars_of: 'monthly_averages' });
    expect(historyBody(parts()).bars_of).toBeUndefined();
  });

  it('a converted answer names its currency, unit and rates: from their first date, until an end, the points left out', () => {
    const b = historyBody(parts({ code: 'EUR', unit: 'gram', fx: { series: eurSeries, until: '2020-12-31', leftOut: 3 } }));
    expect(b).toMatchObject({ currency: 'EUR', unit: 'gram', fx: { from: eurSeries.d[0], until: '2020-12-31', left_out: 3 } });
    expect(historyBody(parts({ code: 'EUR', fx: { series: eurSeries, until: null, leftOut: 0 } })).fx).toEqual({
      source: expect.any(String),
      from: eurSeries.d[0],
    });
  });

  it('its JSON is the text JSON.stringify gives; a kept list’s points are encoded once', () => {
    const b = historyBody(parts());
    const joined = (body: typeof b) => {
      const [head, bytes, tail] = historyJsonParts(body);
      return head + Buffer.from(bytes).toString('utf8') + tail;
    };
    expect(joined(b)).toBe(JSON.stringify(b));
    // A list cut for one request: encoded each time.
    expect(historyJsonParts(b)[1]).not.toBe(historyJsonParts(b)[1]);
    const kept = keep('test-body-points', points, points);
    const k = historyBody(parts({ points: kept }));
    const [head, bytes, tail] = historyJsonParts(k);
    expect(head + Buffer.from(bytes).toString('utf8') + tail).toBe(JSON.stringify(k));
    expect(historyJsonParts(k)[1]).toBe(bytes);
  });
});
