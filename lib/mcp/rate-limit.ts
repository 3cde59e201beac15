import { getStore } from '../store';

// /mcp fair-use limit: 120 requests per minute per client (lib/http/public-origin.mjs says who the
// client is), counted in the store so every instance shares one count. Fixed windows aligned to the clock.

export const MCP_LIMIT = 120;

export function windowSeconds(): number {
  const n = Number(process.env.MCP_RATE_WINDOW_S);
  return Number.isFinite(n) && n > 0 ? n : 60;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests left in the current window after this one; null when the store could not count. */
  remaining: number | null;
  /** Seconds until the current window ends (at least 1). */
  reset: number;
}

export async function checkRate(client: string): Promise<RateDecision> {
  const win = windowSeconds();
  const now = Date.now() / 1000;
  const window = Math.floor(now / win);
  const reset = Math.max(1, Math.ceil((window + 1) * win - now));
  try {
    const count = await getStore().incr(`rl:mcp:${client}:${window}`, win * 2);
    return { allowed: count <= MCP_LIMIT, remaining: Math.max(0, MCP_LIMIT - count), reset };
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[mcp] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, remaining: null, reset };
  }
}

/**
 * The limit as the IETF draft words it (draft-ietf-httpapi-ratelimit-headers), on every counted
 * answer: the policy, and what is left of it unless the store could not count.
 */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  const policy = { 'RateLimit-Policy': `"mcp";q=${MCP_LIMIT};w=${windowSeconds()}` };
  return rate.remaining === null ? policy : { ...policy, RateLimit: `"mcp";r=${rate.remaining};t=${rate.reset}` };
}
