import { getStore } from './index';

// Fixed-window limits counted in the store, so every instance shares one count: /mcp's fair use
// (lib/mcp/rate-limit.ts) and the creation of price alerts (lib/alerts/). Windows are aligned to the clock.

export interface RatePolicy {
  /** The policy's name in the `RateLimit` headers and its counters' keys. */
  name: string;
  /** Units allowed per window. */
  limit: number;
  /** Window length, seconds. */
  windowS: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Units left in the current window after this request's (before them, when refused); null when the store could not count. */
  remaining: number | null;
  /** Seconds until the current window ends (at least 1). */
  reset: number;
}

/**
 * Counts `units` against `client`'s window of `policy`. A request that would pass the limit is refused whole and
 * gives its count back, so a refused request costs nothing of what is left. A store that cannot count allows (logged).
 */
export async function countRate(policy: RatePolicy, client: string, units = 1): Promise<RateDecision> {
  const win = policy.windowS;
  const now = Date.now() / 1000;
  const window = Math.floor(now / win);
  const reset = Math.max(1, Math.ceil((window + 1) * win - now));
  const key = `rl:${policy.name}:${client}:${window}`;
  let count: number;
  try {
    count = await getStore().incr(key, win * 2, units);
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[${policy.name}] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, remaining: null, reset };
  }
  if (count <= policy.limit) return { allowed: true, remaining: policy.limit - count, reset };
  // Refused whole: none of it runs, so none of it counts. A give-back that fails leaves it counted (refused all the same).
  const before = await getStore()
    .incr(key, win * 2, -units)
    .catch(() => count);
  return { allowed: false, remaining: Math.max(0, policy.limit - before), reset };
}

/**
 * The limit as the IETF draft words it (draft-ietf-httpapi-ratelimit-headers), on every counted
 * answer: the policy, and what is left of it unless the store could not count.
 */
export function rateLimitHeaders(policy: RatePolicy, rate: RateDecision): Record<string, string> {
  const head = { 'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${policy.windowS}` };
  return rate.remaining === null ? head : { ...head, RateLimit: `"${policy.name}";r=${rate.remaining};t=${rate.reset}` };
}
