import { Feed, type Sourced } from './freshness';
import { fetchTokens, type Tokens } from './upstream/crypto';
import { fetchFx, type FxTable } from './upstream/fx';
import { fetchMetal } from './upstream/gold-api';
import { fetchQuote, type Quote } from './upstream/quotes';

// The live feeds behind spot, the sampler and the MCP tools, one per data group, each with the
// cache TTL the API documents for it.

/** A gold price that moved more than this fraction... */
const MAX_JUMP = 0.25;
/** ...within this many ms of the last real one is treated as upstream garbage, never served. */
const JUMP_WINDOW_MS = 10 * 60 * 1000;

export function jumpCheck(next: Sourced<number>, last: Sourced<number> | null): string | null {
  if (!last || next.fetchedAt - last.fetchedAt > JUMP_WINDOW_MS) return null;
  const move = Math.abs(next.value / last.value - 1);
  return move > MAX_JUMP ? `price ${next.value} moved ${(move * 100).toFixed(1)}% from ${last.value}` : null;
}

/** The jump rule on a quote's mid. */
function quoteJumpCheck(next: Sourced<Quote>, last: Sourced<Quote> | null): string | null {
  const mid = (q: Sourced<Quote>) => ({ ...q, value: q.value.mid });
  return jumpCheck(mid(next), last && mid(last));
}

export const feeds = {
  gold: new Feed<number>({ name: 'gold', ttlS: 30, fetch: () => fetchMetal('XAU'), check: jumpCheck }),
  silver: new Feed<number>({ name: 'silver', ttlS: 30, fetch: () => fetchMetal('XAG'), check: jumpCheck }),
  /** The second live source: bid/ask from the quotes feed, its own TTL, single flight and last real value. */
  quotesGold: new Feed<Quote>({ name: 'quotes-gold', ttlS: 30, fetch: () => fetchQuote('XAU'), check: quoteJumpCheck }),
  quotesSilver: new Feed<Quote>({ name: 'quotes-silver', ttlS: 30, fetch: () => fetchQuote('XAG'), check: quoteJumpCheck }),
  fx: new Feed<FxTable>({ name: 'fx', ttlS: 12 * 3600, fetch: fetchFx }),
  tokens: new Feed<Tokens>({ name: 'tokens', ttlS: 60, fetch: fetchTokens }),
};
