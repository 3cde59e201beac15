import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { config } from '../../core/config';
import type { Sourced } from '../freshness';
import { OZ_PER_TONNE } from '../../reference/units';
import { getValid, UpstreamError } from './fetch';

// IMF IRFCL official gold volume (RAFAGOLDV_OZT: millions of fine troy ounces, monthly) for every
// reporting country, in one DBnomics request.

export const RESERVES_API_NAME = 'IMF IRFCL via DBnomics';

/** A monthly holding series: months ascending, tonnes. */
export interface LiveSeries {
  iso3: string;
  months: { month: string; tonnes: number }[];
}

/** No central bank holds more than this; a figure above it is a known IRFCL scaling error (×1000). */
const MAX_TONNES = 9000;

const Body = z.object({
  series: z.object({
    docs: z.array(
      z.object({
        dimensions: z.object({ REF_AREA: z.string(), INDICATOR: z.string().optional() }),
        period: z.array(z.string()),
        value: z.array(z.union([z.number(), z.string(), z.null()])),
        indexed_at: z.string().optional(),
      }),
    ),
  }),
});

/** Series by ISO3, with implausible or missing values dropped (never filled in). */
export function parseReserves(body: unknown): LiveSeries[] {
  const parsed = Body.safeParse(body);
  if (!parsed.success) throw new UpstreamError(RESERVES_API_NAME, 'unexpected shape');
  const out: LiveSeries[] = [];
  for (const doc of parsed.data.series.docs) {
    const iso3 = countries.alpha2ToAlpha3(doc.dimensions.REF_AREA);
    if (!iso3) continue; // regional aggregates (e.g. euro area codes) are not countries
    const months = doc.period
      .map((month, i) => ({ month, value: doc.value[i] }))
      .filter(
        (x): x is { month: string; value: number } =>
          typeof x.value === 'number' && Number.isFinite(x.value) && x.value >= 0 && /^\d{4}-\d{2}$/.test(x.month),
      )
      .map((x) => ({ month: x.month, tonnes: (x.value * 1e6) / OZ_PER_TONNE }))
      .filter((x) => x.tonnes <= MAX_TONNES);
    if (months.length) out.push({ iso3, months });
  }
  if (!out.length) throw new UpstreamError(RESERVES_API_NAME, 'no usable series');
  return out;
}

export async function fetchReserves(): Promise<Sourced<LiveSeries[]>> {
  const dimensions = JSON.stringify({ FREQ: ['M'], INDICATOR: ['RAFAGOLDV_OZT'], REF_SECTOR: ['S1X'] });
  const url = `${config.upstream.reserves()}/v22/series/IMF/IRFCL?dimensions=${encodeURIComponent(dimensions)}&observations=1&limit=1000`;
  const fetchedAt = Date.now();
  return { value: parseReserves(await getValid(RESERVES_API_NAME, url, z.unknown())), asOf: fetchedAt, fetchedAt };
}
