import { z } from 'zod';
import { config } from '../config';
import type { Sourced } from '../freshness';
import { getValid, UpstreamError } from './fetch';

// gold-api.com: GET /price/XAU and /price/XAG, USD per troy ounce. The 2026 body adds
// currency fields; the older one has only name/price/symbol/updatedAt. Both are accepted.

export type Metal = 'XAU' | 'XAG';

/** Plausible USD/oz bounds: far outside any price either metal has traded at; outside is garbage. */
const BOUNDS: Record<Metal, [number, number]> = { XAU: [100, 100_000], XAG: [1, 5_000] };

const Body = z.object({
  symbol: z.string(),
  price: z.number().finite().positive(),
  updatedAt: z.iso.datetime({ offset: true }).optional(),
  currency: z.string().optional(),
});

export const GOLD_API_NAME = 'gold-api.com';

export async function fetchMetal(metal: Metal): Promise<Sourced<number>> {
  const body = await getValid(GOLD_API_NAME, `${config.upstream.gold()}/price/${metal}`, Body);
  if (body.symbol.toUpperCase() !== metal) throw new UpstreamError(GOLD_API_NAME, `asked ${metal}, got ${body.symbol}`);
  if (body.currency && body.currency.toUpperCase() !== 'USD') throw new UpstreamError(GOLD_API_NAME, `currency ${body.currency}`);
  const [lo, hi] = BOUNDS[metal];
  if (body.price < lo || body.price > hi) throw new UpstreamError(GOLD_API_NAME, `implausible ${metal} price ${body.price}`);
  const fetchedAt = Date.now();
  const asOf = body.updatedAt ? Date.parse(body.updatedAt) : fetchedAt;
  // An upstream clock ahead of ours would give a negative age: never claim a value from the future.
  return { value: body.price, asOf: Math.min(asOf, fetchedAt), fetchedAt };
}
