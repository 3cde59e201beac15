import { z } from 'zod';
import { config } from '../../core/config';
import type { Sourced } from '../freshness';
import { getValid, UpstreamError } from './fetch';

// CoinGecko simple price: Bitcoin (with market cap) and two gold-backed tokens, USD.
// Any id may be missing from a body; a body with none of them (e.g. the 200-with-429 body) is a failure.

export interface Tokens {
  btc_usd: number | null;
  btc_market_cap_usd: number | null;
  paxg_usd: number | null;
  xaut_usd: number | null;
}

const Price = z.number().finite().positive();
const Coin = z.object({ usd: Price, usd_market_cap: Price.optional(), last_updated_at: z.number().int().optional() });
const Body = z.object({
  bitcoin: Coin.optional(),
  'pax-gold': Coin.optional(),
  'tether-gold': Coin.optional(),
});

export const CRYPTO_API_NAME = 'coingecko.com';

export async function fetchTokens(): Promise<Sourced<Tokens>> {
  const url = `${config.upstream.crypto()}/api/v3/simple/price?ids=bitcoin,pax-gold,tether-gold&vs_currencies=usd&include_market_cap=true&include_last_updated_at=true`;
  const body = await getValid(CRYPTO_API_NAME, url, Body);
  const coins = [body.bitcoin, body['pax-gold'], body['tether-gold']].filter((c) => c !== undefined);
  if (coins.length === 0) throw new UpstreamError(CRYPTO_API_NAME, 'no prices in body');
  const fetchedAt = Date.now();
  const stamps = coins.map((c) => (c.last_updated_at ? c.last_updated_at * 1000 : fetchedAt));
  return {
    value: {
      btc_usd: body.bitcoin?.usd ?? null,
      btc_market_cap_usd: body.bitcoin?.usd_market_cap ?? null,
      paxg_usd: body['pax-gold']?.usd ?? null,
      xaut_usd: body['tether-gold']?.usd ?? null,
    },
    asOf: Math.min(Math.min(...stamps), fetchedAt),
    fetchedAt,
  };
}
