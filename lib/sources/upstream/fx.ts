import { z } from 'zod';
import { config } from '../../core/config';
import type { Sourced } from '../freshness';
import { getValid, isPrice, UpstreamError } from './fetch';

// open.er-api.com: GET /v6/latest/USD, about 166 rates against USD, updated once a day.

/** Rates against USD, keyed by upper-case ISO 4217 code; USD is 1. */
export type FxTable = Record<string, number>;

const Body = z.object({
  result: z.literal('success'),
  base_code: z.literal('USD'),
  time_last_update_unix: z.number().int().positive(),
  rates: z.record(z.string().regex(/^[A-Z]{3}$/), z.number()),
});

export const FX_API_NAME = 'open.er-api.com';

/** Fewer codes than this means a truncated or wrong table. */
const MIN_CODES = 30;

export function validFxTable(rates: Record<string, number>): FxTable {
  const table: FxTable = {};
  for (const [code, rate] of Object.entries(rates)) if (isPrice(rate)) table[code] = rate;
  if (table.USD !== 1) throw new UpstreamError(FX_API_NAME, 'USD rate is not 1');
  if (Object.keys(table).length < MIN_CODES) throw new UpstreamError(FX_API_NAME, 'too few rates');
  return table;
}

export async function fetchFx(): Promise<Sourced<FxTable>> {
  const body = await getValid(FX_API_NAME, `${config.upstream.fx()}/v6/latest/USD`, Body);
  const fetchedAt = Date.now();
  return { value: validFxTable(body.rates), asOf: Math.min(body.time_last_update_unix * 1000, fetchedAt), fetchedAt };
}
