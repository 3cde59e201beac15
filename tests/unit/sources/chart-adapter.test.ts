import { describe, expect, it } from 'vitest';
import { parseChart } from '@/lib/sources/upstream/chart';
import { fixture } from '../../support/fake-upstream';
import { RECORDED } from '../../support/yahoo';

// The chart adapter alone, on recorded upstream bodies.

describe('chart adapter on recorded bodies', () => {
  it('parses every recorded sample', () => {
    for (const [ticker, body] of Object.entries(RECORDED)) {
      const { bars, meta } = parseChart(body);
      expect(bars.length, ticker).toBeGreaterThan(0);
      expect(meta.symbol).toBe(ticker);
    }
    const gc2020 = parseChart(fixture('yahoo-chart-GCF-2020-01-02-1d.recording.json').response.bodyJson);
    expect(gc2020.bars.length).toBeGreaterThan(0);
  });

  it('an empty period (no timestamp key) is zero bars, not an error', () => {
    const body = fixture('yahoo-chart-empty-period-TSLA-1h.recording.json').response.bodyJson;
    expect(parseChart(body).bars).toEqual([]);
  });

  it('error bodies throw with the upstream description', () => {
    expect(() => parseChart(fixture('yahoo-chart-error.json'), 404)).toThrow(/No data found/);
    expect(() => parseChart(fixture('yahoo-chart-error.json'), 200)).toThrow(/No data found/);
    expect(() => parseChart({ chart: { result: [{}] } })).toThrow(/unexpected shape/);
  });
});
