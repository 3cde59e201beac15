import { Feed, type Sourced } from './freshness';
import { fetchTokens, type Tokens } from './upstream/crypto';
import { fetchFx, type FxTable } from './upstream/fx';
import { fetchMetal } from './upstream/gold-api';
import { fetchQuote, type Quote } from './upstream/quotes';
import { METALS, type MetalId } from '../reference/metals';

// The live feeds behind spot, the sampler and the MCP tools, one per data group, each with the
// cache TTL the API documents for it.

/** A metal price that moved more than this fraction... */
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

export interface MetalFeeds {
  /** gold-api.com, USD per troy ounce. */
  primary: Feed<number>;
  /** The second live source: bid/ask from the quotes feed, its own TTL, single flight and last real value. */
  secondary: Feed<Quote>;
}

/** Both live sources of every served metal (store keys `last:<id>` and `last:quotes-<id>`). */
export const metalFeeds = Object.fromEntries(
  METALS.map((m) => [
    m.id,
    {
      primary: new Feed<number>({ name: m.id, ttlS: 30, fetch: () => fetchMetal(m.symbol), check: jumpCheck }),
      secondary: new Feed<Quote>({ name: `quotes-${m.id}`, ttlS: 30, fetch: () => fetchQuote(m.symbol), check: quoteJumpCheck }),
    },
  ]),
) as Record<MetalId, MetalFeeds>;

export const feeds = {
  fx: new Feed<FxTable>({ name: 'fx', ttlS: 12 * 3600, fetch: fetchFx }),
  tokens: new Feed<Tokens>({ name: 'tokens', ttlS: 60, fetch: fetchTokens }),
};
