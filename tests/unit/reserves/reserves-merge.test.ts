import { describe, expect, it } from 'vitest';
import { mergeReserves } from '@/lib/reserves/holdings';
import { parseReserves } from '@/lib/sources/upstream/reserves';
import { OZ_PER_TONNE } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';

// The live monthly series (a recorded DBnomics body) merged over the bundled snapshot.

const dbnomics = fixture('dbnomics-IMF-IRFCL-M.PL.RAFAGOLDV_OZT.S1X.trimmed.json');
const poland = dbnomics.series.docs[0];

describe('merging the live monthly series', () => {
  it('converts million troy ounces to tonnes and computes month-over-month', () => {
    const live = parseReserves(dbnomics);
    expect(live.map((s) => s.iso3)).toEqual(['POL']);
    const rows = mergeReserves([], live);
    const n = poland.value.length;
    const last = (poland.value[n - 1] * 1e6) / OZ_PER_TONNE;
    const prev = (poland.value[n - 2] * 1e6) / OZ_PER_TONNE;
    expect(rows).toHaveLength(1);
    expect(rows[0].reporting_month).toBe(poland.period[n - 1]);
    expect(rows[0].tonnes).toBeCloseTo(last, 6);
    expect(rows[0].change_mom_tonnes).toBeCloseTo(last - prev, 6);
  });

  it('a newer live month replaces an older snapshot figure; a gap in months gives no change', () => {
    const live = parseReserves(dbnomics);
    const older = [{ country: 'Poland', iso3: 'POL', tonnes: 100, reporting_month: '2020-01', change_mom_tonnes: null }];
    expect(mergeReserves(older, live)[0].reporting_month).toBe(poland.period[poland.period.length - 1]);
    const gap = structuredClone(dbnomics);
    gap.series.docs[0].value[gap.series.docs[0].value.length - 2] = null;
    expect(mergeReserves([], parseReserves(gap))[0].change_mom_tonnes).toBeNull();
  });

  it('values implying more than 9,000 t (a known IRFCL scaling error) are dropped', () => {
    const scaled = structuredClone(dbnomics);
    const v = scaled.series.docs[0].value;
    v[v.length - 1] = v[v.length - 1] * 1000;
    const rows = mergeReserves([], parseReserves(scaled));
    expect(rows[0].reporting_month).toBe(poland.period[poland.period.length - 2]);
  });
});
