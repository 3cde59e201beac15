import { describe, expect, it } from 'vitest';
import { Reserves } from '@/lib/schemas/reserves';
import { fixture, type Behaviour } from '../../support/fake-upstream';
import { inProcessScenarios } from '../../support/in-process';

// GET /api/v1/reserves at the route handler in process (tests/support/in-process.ts), each scenario with its own fake
// upstream and process state: the bundled snapshot, the live monthly series merged in, and the fallback.

const scenario = inProcessScenarios();

const dbnomics = fixture('dbnomics-IMF-IRFCL-M.PL.RAFAGOLDV_OZT.S1X.trimmed.json');
const poland = dbnomics.series.docs[0];

function expectTable(body: any) {
  Reserves.parse(body);
  expect(body.count).toBe(body.countries.length);
  expect(body.count).toBeGreaterThanOrEqual(100);
  body.countries.forEach((c: any, i: number) => {
    expect(c.rank).toBe(i + 1);
    if (i > 0) expect(c.tonnes).toBeLessThanOrEqual(body.countries[i - 1].tonnes);
    expect(c.tonnes).toBeGreaterThan(0);
    expect(c.iso3).toMatch(/^[A-Z]{3}$/);
    expect(c.reporting_month).toMatch(/^\d{4}-\d{2}$/);
    expect(c.country.length).toBeGreaterThan(1);
    expect('change_mom_tonnes' in c).toBe(true);
  });
  const sum = body.countries.reduce((s: number, c: any) => s + c.tonnes, 0);
  expect(Math.abs(body.total_tonnes - sum)).toBeLessThan(0.01 * body.count);
  expect(new Set(body.countries.map((c: any) => c.iso3)).size).toBe(body.count);
}

describe('GET /api/v1/reserves', () => {
  it('a ranked table with every required field; the live source answered', async () => {
    const app = await scenario();
    const { status, body, headers } = await app.json('/api/v1/reserves');
    expect(status).toBe(200);
    expectTable(body);
    expect(body.data_state).toMatchObject({ status: 'fresh', source: 'upstream' });
    expect(body.source).toContain('DBnomics');
    expect(headers.get('cache-control')).toBe('public, max-age=3600');
    // The United States holds the most gold of any country in every source.
    expect(body.countries[0].iso3).toBe('USA');
    expect(app.fake.log.some((l) => l.startsWith('/v22/series/IMF/IRFCL?'))).toBe(true);
  });

  it('a live series older than the snapshot does not replace it', async () => {
    const app = await scenario();
    const { body } = await app.json('/api/v1/reserves');
    const pl = body.countries.find((c: any) => c.iso3 === 'POL');
    // The recorded IRFCL series ends 2025-07; the bundled WGC figure is later.
    expect(pl.reporting_month > poland.period[poland.period.length - 1]).toBe(true);
  });

  for (const [label, b] of [
    ['refused', { mode: 'refuse' }],
    ['HTTP 500', { mode: 'status', status: 500 }],
    ['malformed', { mode: 'malformed' }],
    ['wrong shape', { mode: 'json', body: { docs: [] } }],
  ] as [string, Behaviour][]) {
    it(`live source ${label}: the bundled snapshot, labelled snapshot`, async () => {
      const app = await scenario((f) => f.set('reserves', b));
      const { status, body } = await app.json('/api/v1/reserves');
      expect(status).toBe(200);
      expectTable(body);
      expect(body.data_state.source).toBe('snapshot');
      expect(body.data_state.status).toBe('stale');
      expect(body.source).toMatch(/snapshot/);
      expect(body.countries.every((c: any) => c.change_mom_tonnes === null)).toBe(true);
    });
  }
});
