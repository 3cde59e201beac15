import { getStore } from '../store';

// /mcp fair-use limit: 120 requests per minute per client IP, counted in the store
// so every instance shares one count. Fixed windows aligned to the clock.

export const MCP_LIMIT = 120;

export function windowSeconds(): number {
  const n = Number(process.env.MCP_RATE_WINDOW_S);
  return Number.isFinite(n) && n > 0 ? n : 60;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
}

export async function checkRate(ip: string): Promise<RateDecision> {
  const win = windowSeconds();
  const now = Date.now() / 1000;
  const window = Math.floor(now / win);
  const retryAfter = Math.max(1, Math.ceil((window + 1) * win - now));
  try {
    const count = await getStore().incr(`rl:mcp:${ip}:${window}`, win * 2);
    return { allowed: count <= MCP_LIMIT, retryAfter };
  } catch (err) {
    // A store outage must not take the endpoint down: allow, and say so in the log.
    console.warn(`[mcp] rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`);
    return { allowed: true, retryAfter };
  }
}

/** The client's IP: the first x-forwarded-for hop on Vercel, else the socket address server.mjs passes on. */
export function clientIp(req: Request): string {
  if (process.env.VERCEL) {
    const first = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.headers.get('x-socket-address') || 'unknown';
}
