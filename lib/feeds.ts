import { Feed, type Sourced } from './freshness';
import { fetchTokens, type Tokens } from './upstream/crypto';
import { fetchFx, type FxTable } from './upstream/fx';
import { fetchMetal } from './upstream/gold-api';

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

export const feeds = {
  gold: new Feed<number>({ name: 'gold', ttlS: 30, fetch: () => fetchMetal('XAU'), check: jumpCheck }),
  silver: new Feed<number>({ name: 'silver', ttlS: 30, fetch: () => fetchMetal('XAG'), check: jumpCheck }),
  fx: new Feed<FxTable>({ name: 'fx', ttlS: 12 * 3600, fetch: fetchFx }),
  tokens: new Feed<Tokens>({ name: 'tokens', ttlS: 60, fetch: fetchTokens }),
};
