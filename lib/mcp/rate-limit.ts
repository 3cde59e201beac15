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
  /** The counter this POST's messages were counted in, and how many of them are counted there. */
  counted: { key: string; ends: number; messages: number };
}

/**
 * Counts `messages` (a POST's JSON-RPC messages) against the client's window. A POST that would pass the
 * limit is refused whole and gives its count back, so a refused batch costs nothing of what is left.
 * The route counts a POST's first message before it reads the body, so a client already over the limit is
 * refused without being read, then the rest with `countMore` once the body says how many there are.
 */
export async function checkRate(client: string, messages = 1): Promise<RateDecision> {
  const win = windowSeconds();
  const window = Math.floor(Date.now() / 1000 / win);
  return count({ key: `rl:mcp:${client}:${window}`, ends: (window + 1) * win, messages: 0 }, messages);
}

/**
 * Counts `more` messages of a POST whose first `checkRate` allowed, in the same window (a slow upload may end
 * in the next one); past the limit, all of the POST's messages are given back and it is refused whole.
 */
export async function countMore(first: RateDecision, more: number): Promise<RateDecision> {
  if (more <= 0 || first.remaining === null) return first;
  return count(first.counted, more);
}

async function count(counted: RateDecision['counted'], messages: number): Promise<RateDecision> {
  const win = windowSeconds();
  const reset = Math.max(1, Math.ceil(counted.ends - Date.now() / 1000));
  const all = { ...counted, messages: counted.messages + messages };
  let n: number;
  try {
    n = await getStore().incr(counted.key, win * 2, messages);
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[mcp] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, remaining: null, reset, counted: all };
  }
  if (n <= MCP_LIMIT) return { allowed: true, remaining: MCP_LIMIT - n, reset, counted: all };
  // Refused whole: none of it runs, so none of it counts. A give-back that fails leaves it counted (refused all the same).
  const before = await getStore()
    .incr(counted.key, win * 2, -all.messages)
    .catch(() => n);
  return { allowed: false, remaining: Math.max(0, MCP_LIMIT - before), reset, counted: { ...all, messages: 0 } };
}

/**
 * The limit as the IETF draft words it (draft-ietf-httpapi-ratelimit-headers), on every counted
 * answer: the policy, and what is left of it (in messages) unless the store could not count.
 */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  const policy = { 'RateLimit-Policy': `"mcp";q=${MCP_LIMIT};w=${windowSeconds()}` };
  return rate.remaining === null ? policy : { ...policy, RateLimit: `"mcp";r=${rate.remaining};t=${rate.reset}` };
}
