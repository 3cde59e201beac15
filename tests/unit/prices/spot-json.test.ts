import { describe, expect, it } from 'vitest';
import example from '@/lib/data/examples/spot.json';
import type { Spot } from '@/lib/schemas/spot';
import { spotJson } from '@/lib/prices/spot';
import { fixture } from '../../support/fake-upstream';

// The spot answer's JSON reuses the FX table's serialization: it must stay exactly what
// JSON.stringify gives, and follow a new table as soon as one is fetched.

/** The recorded example with a real recorded FX table (the example itself is compact). */
const spot = { ...(example as unknown as Spot), fx_rates: fixture('er-api-latest-USD.json').rates as Record<string, number> };

describe('spotJson', () => {
  it('is byte for byte JSON.stringify, with and without the FX table', () => {
    expect(Object.keys(spot.fx_rates ?? {}).length).toBeGreaterThan(100);
    expect(spotJson(spot)).toBe(JSON.stringify(spot));
    expect(spotJson(spot)).toBe(JSON.stringify(spot));
    const { fx_rates: _, ...compact } = spot;
    expect(spotJson(compact as Spot)).toBe(JSON.stringify(compact));
  });

  it('a new table (a new fetch) is serialized anew', () => {
    const first = spotJson(spot);
    const next = { ...spot, fx_rates: { ...spot.fx_rates, EUR: 0.5 } };
    expect(spotJson(next)).toBe(JSON.stringify(next));
    expect(JSON.parse(spotJson(next)).fx_rates.EUR).toBe(0.5);
    expect(spotJson(spot)).toBe(first);
  });

  it('values around the table stay where they were', () => {
    const moved = { ...spot, spot_usd_oz: 1234.5, docs: 'http://h/docs' };
    expect(JSON.parse(spotJson(moved))).toEqual(JSON.parse(JSON.stringify(moved)));
  });
});
