import { countMoreRate, countRate, rateLimitHeaders, type RateDecision, type RatePolicy } from '../store/rate-limit';
import { poolOf } from './pools';

// /mcp fair-use limit: 120 JSON-RPC messages per minute per client (lib/http/public-origin.mjs says who
// the client is), counted in the store so every instance shares one count (lib/store/rate-limit.ts). A batch
// counts as its size (decisions §25): counted per POST, one client's batches of 100 bought 12,000 calls a minute.
// A client inside a hosted agent platform's published range shares that range's larger pool instead (./pools.ts).

export type { RateDecision } from '../store/rate-limit';

export const MCP_LIMIT = 120;

export function windowSeconds(): number {
  const n = Number(process.env.MCP_RATE_WINDOW_S);
  return Number.isFinite(n) && n > 0 ? n : 60;
}

/** Who a request is counted as, and under which limit: one address (or IPv6 /64), or a platform's pooled range. */
export interface McpLimit {
  policy: RatePolicy;
  /** The counter's name: the client's address, or `pool:<cidr>`. */
  counter: string;
  /** Whom the limit is per, in words for a 429's message. */
  per: string;
}

export function mcpLimit(client: string): McpLimit {
  const pool = poolOf(client);
  const windowS = windowSeconds();
  if (pool)
    return { policy: { name: 'mcp', limit: pool.limit, windowS }, counter: `pool:${pool.cidr}`, per: `shared by the address range ${pool.cidr}` };
  return { policy: { name: 'mcp', limit: MCP_LIMIT, windowS }, counter: client, per: 'per client' };
}

/**
 * Counts `messages` (a POST's JSON-RPC messages) against the client's window. A POST that would pass the
 * limit is refused whole and gives its count back, so a refused batch costs nothing of what is left.
 * The route counts a POST's first message before it reads the body, so a client already over the limit is
 * refused without being read, then the rest with `countMore` once the body says how many there are.
 */
export function checkRate(limit: McpLimit, messages = 1): Promise<RateDecision> {
  return countRate(limit.policy, limit.counter, messages);
}

/**
 * Counts `more` messages of a POST whose first `checkRate` allowed, in the same window; past the limit, all of the
 * POST's messages are given back and it is refused whole.
 */
export function countMore(limit: McpLimit, first: RateDecision, more: number): Promise<RateDecision> {
  return countMoreRate(limit.policy, first, more);
}

/** The limit's `RateLimit-Policy` / `RateLimit` headers, on every counted answer. */
export function rateHeaders(limit: McpLimit, rate: RateDecision): Record<string, string> {
  return rateLimitHeaders(limit.policy, rate);
}
