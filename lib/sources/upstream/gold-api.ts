import { z } from 'zod';
import { config } from '../../core/config';
import type { Sourced } from '../freshness';
import { getValid, UpstreamError } from './fetch';
import { implausible, type Metal } from './plausible';

// gold-api.com: GET /price/{XAU|XAG|XPT|XPD} (every metal of lib/reference/metals.ts), USD per troy ounce. The 2026 body adds
// currency fields; the older one has only name/price/symbol/updatedAt. Both are accepted.

export type { Metal };

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
  const absurd = implausible(metal, body.price);
  if (absurd) throw new UpstreamError(GOLD_API_NAME, absurd);
  const fetchedAt = Date.now();
  const asOf = body.updatedAt ? Date.parse(body.updatedAt) : fetchedAt;
  // An upstream clock ahead of ours would give a negative age: never claim a value from the future.
  return { value: body.price, asOf: Math.min(asOf, fetchedAt), fetchedAt };
}
