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
  /** The counter this request's units were counted in, and how many of them are counted there. */
  counted: { key: string; ends: number; units: number };
}

/**
 * Counts `units` against `client`'s window of `policy`. A request that would pass the limit is refused whole and
 * gives its count back, so a refused request costs nothing of what is left. A store that cannot count allows (logged).
 */
export function countRate(policy: RatePolicy, client: string, units = 1): Promise<RateDecision> {
  const window = Math.floor(Date.now() / 1000 / policy.windowS);
  return count(policy, { key: `rl:${policy.name}:${client}:${window}`, ends: (window + 1) * policy.windowS, units: 0 }, units);
}

/**
 * Counts `more` units of a request whose first count was allowed, in the same window (a slow upload may end in the
 * next one); past the limit, all of the request's units are given back and it is refused whole.
 */
export function countMoreRate(policy: RatePolicy, first: RateDecision, more: number): Promise<RateDecision> {
  if (more <= 0 || first.remaining === null) return Promise.resolve(first);
  return count(policy, first.counted, more);
}

async function count(policy: RatePolicy, counted: RateDecision['counted'], units: number): Promise<RateDecision> {
  const win = policy.windowS;
  const reset = Math.max(1, Math.ceil(counted.ends - Date.now() / 1000));
  const all = { ...counted, units: counted.units + units };
  let n: number;
  try {
    n = await getStore().incr(counted.key, win * 2, units);
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[${policy.name}] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, remaining: null, reset, counted: all };
  }
  if (n <= policy.limit) return { allowed: true, remaining: policy.limit - n, reset, counted: all };
  // Refused whole: none of it runs, so none of it counts. A give-back that fails leaves it counted (refused all the same).
  const before = await getStore()
    .incr(counted.key, win * 2, -all.units)
    .catch(() => n);
  return { allowed: false, remaining: Math.max(0, policy.limit - before), reset, counted: { ...all, units: 0 } };
}

/**
 * The limit as the IETF draft words it (draft-ietf-httpapi-ratelimit-headers), on every counted
 * answer: the policy, and what is left of it unless the store could not count.
 */
export function rateLimitHeaders(policy: RatePolicy, rate: RateDecision): Record<string, string> {
  const head = { 'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${policy.windowS}` };
  return rate.remaining === null ? head : { ...head, RateLimit: `"${policy.name}";r=${rate.remaining};t=${rate.reset}` };
}
