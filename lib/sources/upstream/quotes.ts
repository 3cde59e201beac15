import { config } from '../../core/config';
import type { Sourced } from '../freshness';
import { getJson, isPrice, UpstreamError } from './fetch';
import { implausible, type Metal } from './plausible';

// The quotes feed (Swissquote public quotes, keyless): GET /public-quotes/bboquotes/instrument/{XAU|XAG|XPT|XPD}/USD,
// an array with one entry per trading platform, each `{ts (epoch ms), spreadProfilePrices: [{spreadProfile,
// bid, ask}]}`. Platforms offer different profile sets, so the quote is the narrowest ask − bid among the
// entries with the newest `ts`; its mid is the price. While the market is closed `ts` stops moving.

export const QUOTES_API_NAME = 'swissquote.com';

export interface Quote {
  bid: number;
  ask: number;
  mid: number;
}

/** The quote the feed's body gives, as of its `ts`; throws UpstreamError when it holds no usable quote. */
export function readQuotes(metal: Metal, body: unknown, fetchedAt: number): Sourced<Quote> {
  if (!Array.isArray(body)) throw new UpstreamError(QUOTES_API_NAME, 'unexpected shape: not an array');
  // Only entries with a real timestamp and a real two-sided quote count; the newest of those wins.
  const candidates: { ts: number; bid: number; ask: number }[] = [];
  for (const entry of body) {
    const ts = entry?.ts;
    const profiles = entry?.spreadProfilePrices;
    if (!isPrice(ts) || !Array.isArray(profiles)) continue;
    for (const p of profiles) {
      if (isPrice(p?.bid) && isPrice(p?.ask) && p.bid < p.ask) candidates.push({ ts, bid: p.bid, ask: p.ask });
    }
  }
  if (candidates.length === 0) throw new UpstreamError(QUOTES_API_NAME, `no ${metal} entry with a positive bid below the ask`);
  const newest = Math.max(...candidates.map((c) => c.ts));
  const best = candidates.filter((c) => c.ts === newest).reduce((a, b) => (b.ask - b.bid < a.ask - a.bid ? b : a));
  // Rounded only to drop binary noise (4389.379999999999): quotes carry 3 decimals, so 6 lose nothing.
  const mid = Math.round(((best.bid + best.ask) / 2) * 1e6) / 1e6;
  const absurd = implausible(metal, best.bid) ?? implausible(metal, best.ask);
  if (absurd) throw new UpstreamError(QUOTES_API_NAME, absurd);
  // An upstream clock ahead of ours would give a negative age: never claim a value from the future.
  return { value: { bid: best.bid, ask: best.ask, mid }, asOf: Math.min(newest, fetchedAt), fetchedAt };
}

export async function fetchQuote(metal: Metal): Promise<Sourced<Quote>> {
  const { status, body } = await getJson(QUOTES_API_NAME, `${config.upstream.quotes()}/public-quotes/bboquotes/instrument/${metal}/USD`);
  if (status < 200 || status > 299) throw new UpstreamError(QUOTES_API_NAME, `HTTP ${status}`, status, body);
  return readQuotes(metal, body, Date.now());
}
