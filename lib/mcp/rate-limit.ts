import { getStore } from '../store';

// /mcp fair-use limit: 120 JSON-RPC messages per minute per client (lib/http/public-origin.mjs says who
// the client is), counted in the store so every instance shares one count. Fixed windows aligned to the
// clock. A batch counts as its size (decisions §25): counted per POST, one client's batches of 100
// bought 12,000 calls a minute.

export const MCP_LIMIT = 120;

export function windowSeconds(): number {
  const n = Number(process.env.MCP_RATE_WINDOW_S);
  return Number.isFinite(n) && n > 0 ? n : 60;
}

export interface RateDecision {
  allowed: boolean;
  /** Messages left in the current window after this POST's (before them, when refused); null when the store could not count. */
  remaining: number | null;
  /** Seconds until the current window ends (at least 1). */
  reset: number;
}

/**
 * Counts `messages` (a POST's JSON-RPC messages) against the client's window. A POST that would pass the
 * limit is refused whole and gives its count back, so a refused batch costs nothing of what is left.
 */
export async function checkRate(client: string, messages = 1): Promise<RateDecision> {
  const win = windowSeconds();
  const now = Date.now() / 1000;
  const window = Math.floor(now / win);
  const reset = Math.max(1, Math.ceil((window + 1) * win - now));
  const key = `rl:mcp:${client}:${window}`;
  let count: number;
  try {
    count = await getStore().incr(key, win * 2, messages);
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[mcp] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, remaining: null, reset };
  }
  if (count <= MCP_LIMIT) return { allowed: true, remaining: MCP_LIMIT - count, reset };
  // Refused whole: none of it runs, so none of it counts. A give-back that fails leaves it counted (refused all the same).
  const before = await getStore()
    .incr(key, win * 2, -messages)
    .catch(() => count);
  return { allowed: false, remaining: Math.max(0, MCP_LIMIT - before), reset };
}

/**
 * The limit as the IETF draft words it (draft-ietf-httpapi-ratelimit-headers), on every counted
 * answer: the policy, and what is left of it (in messages) unless the store could not count.
 */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  const policy = { 'RateLimit-Policy': `"mcp";q=${MCP_LIMIT};w=${windowSeconds()}` };
  return rate.remaining === null ? policy : { ...policy, RateLimit: `"mcp";r=${rate.remaining};t=${rate.reset}` };
}
