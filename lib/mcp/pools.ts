import net from 'node:net';

// Hosted agent platforms call every tool from a few published address ranges for all of their users: counted per
// address, every claude.ai user of the service would share one address's 120 messages a minute. Each range listed
// here gets a pool of its own, counted as one client with a larger limit (decisions §33). A client address outside
// every pool is counted on its own, as before.

/** One pooled range and the messages per window it shares. */
export interface Pool {
  cidr: string;
  limit: number;
}

/**
 * The pools when `MCP_POOLS` is unset: Anthropic's outbound range for MCP tool calls (claude.ai, Claude's connectors
 * and the Messages API's MCP connector), as https://platform.claude.com/docs/en/api/ip-addresses publishes it. OpenAI
 * publishes ChatGPT's connector ranges as a file that changes (https://openai.com/chatgpt-connectors.json); an
 * operator adds them with MCP_POOLS (docs/configuration.md).
 */
export const DEFAULT_POOLS = '160.79.104.0/21=6000';

interface Parsed {
  raw: string;
  pools: Pool[];
  v4: { list: net.BlockList; pool: Pool }[];
  v6: { list: net.BlockList; pool: Pool }[];
}
let parsed: Parsed | undefined;

/** `MCP_POOLS`: `cidr=limit` entries, comma-separated; set and empty means no pools. An entry that does not parse is logged and skipped. */
export function mcpPools(): Pool[] {
  return current().pools;
}

function current(): Parsed {
  const raw = process.env.MCP_POOLS ?? DEFAULT_POOLS;
  if (parsed?.raw === raw) return parsed;
  const next: Parsed = { raw, pools: [], v4: [], v6: [] };
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^([0-9a-fA-F.:]+)\/(\d{1,3})=(\d+)$/.exec(entry);
    const family = m ? net.isIP(m[1]) : 0;
    const prefix = m ? Number(m[2]) : NaN;
    const limit = m ? Number(m[3]) : NaN;
    if (!m || family === 0 || prefix > (family === 4 ? 32 : 128) || !(limit > 0)) {
      console.warn(`[mcp] MCP_POOLS: "${entry}" is not cidr=limit (for example 160.79.104.0/21=6000); skipped`);
      continue;
    }
    const pool = { cidr: `${m[1]}/${prefix}`, limit };
    const list = new net.BlockList();
    list.addSubnet(m[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
    next.pools.push(pool);
    (family === 4 ? next.v4 : next.v6).push({ list, pool });
  }
  parsed = next;
  return next;
}

/**
 * The pool a client belongs to, by the key the limit counts it under (lib/http/public-origin.mjs: an IPv4 address, or
 * an IPv6 /64 written `a:b:c:d::/64`, which is in a pool when that /64 lies inside it); null when it is in none.
 */
export function poolOf(clientKey: string): Pool | null {
  const { v4, v6 } = current();
  if (clientKey.endsWith('/64')) {
    const network = clientKey.slice(0, -3);
    return net.isIPv6(network) ? (v6.find((p) => p.list.check(network, 'ipv6'))?.pool ?? null) : null;
  }
  return net.isIPv4(clientKey) ? (v4.find((p) => p.list.check(clientKey, 'ipv4'))?.pool ?? null) : null;
}
