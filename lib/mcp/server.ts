import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { McpServer, type CacheHint } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { VERSION } from '../core/version';
import { answer, args, listedInput, listedOutput, type Tool, type ToolContext } from './tool';
import { compareGoldToAsset } from './tools/compare-gold-to-asset';
import { getCentralBankReserves } from './tools/get-central-bank-reserves';
import { getDataStatus } from './tools/get-data-status';
import { getGoldHistory } from './tools/get-gold-history';
import { getGoldIntraday } from './tools/get-gold-intraday';
import { getGoldPrice } from './tools/get-gold-price';
import { getMetalValue } from './tools/get-metal-value';
import { registerViews, viewUri, type ViewDocuments } from './views';

// A fresh MCP server per request, whichever protocol era the request speaks (the route picks the
// transport). Every tool is a thin adapter over the same lib/ function its REST endpoint calls.

export const SERVER_NAME = 'goldapi';
export const SERVER_VERSION = VERSION;

export const TOOLS: Tool[] = [
  getGoldPrice,
  getGoldHistory,
  getGoldIntraday,
  getCentralBankReserves,
  compareGoldToAsset,
  getDataStatus,
  getMetalValue,
] as Tool[];

/** Every tool only reads public market data: nothing changes, the same call gives the same kind of answer, and the data comes from outside. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

const INSTRUCTIONS = `Read-only gold market data. Prices are indicative mid-market reference rates, not tradable quotes.
Every result carries data_state: "fresh" (live or within its cache time), "stale" (the upstream is down; the last real value is given with its age in seconds; tell the user it may be out of date) or "unavailable" (no value is known; none is invented, say so rather than guessing).
Use get_gold_price for the current price in any currency and unit, get_metal_value for what a weight of metal at a purity or a number of bullion coins is worth (the metal's value at spot, not a dealer's or jeweller's price), get_gold_intraday for the recorded 2-minute series (up to 48 h), get_gold_history for daily closes and returns (up to 5 years), compare_gold_to_asset to compare gold with another market, and get_central_bank_reserves for official holdings by country.`;

/**
 * How long a 2026-07-28 client may keep the tool list, the discovery result and the views
 * (`ttlMs`, `cacheScope`): they change only with a redeploy and are the same for every client.
 */
export const LIST_CACHE: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };

/**
 * `views`: the MCP Apps views' documents (widgets/views/), served as resources and named by the
 * tools that have one; without them the server offers its tools alone, text and structuredContent.
 */
export function createGoldServer(ctx: ToolContext, views?: ViewDocuments): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Gold market data' },
    {
      instructions: INSTRUCTIONS,
      // The tool and resource lists change only with a redeploy, which a stateless endpoint cannot announce.
      capabilities: views ? { tools: { listChanged: false }, resources: { listChanged: false } } : { tools: { listChanged: false } },
      cacheHints: {
        'tools/list': LIST_CACHE,
        'server/discover': LIST_CACHE,
        'resources/list': LIST_CACHE,
        'resources/templates/list': LIST_CACHE,
        'resources/read': LIST_CACHE,
      },
    },
  );
  for (const t of TOOLS) {
    const config = {
      title: t.title,
      description: t.description,
      inputSchema: listedInput(t.input),
      outputSchema: listedOutput(t.output),
      annotations: { title: t.title, ...ANNOTATIONS },
    };
    const run = (raw: unknown) => answer(() => t.run(args(t.input, raw), ctx));
    // The extension's helper names the view both ways: `_meta.ui.resourceUri` and the flat `_meta["ui/resourceUri"]` older hosts read.
    if (views && t.view) registerAppTool(server, t.name, { ...config, _meta: { ui: { resourceUri: viewUri(t.view) } } }, run);
    else server.registerTool(t.name, config, run);
  }
  if (views) registerViews(server, views);
  return server;
}

/** One argument of a tool, as the docs list it. */
export interface ArgDoc {
  name: string;
  required: boolean;
  description: string;
  values: string[] | null;
  /** null when the argument has no default. */
  default: unknown;
}

/** The tools as the docs describe them, read from the registered definitions; `view`: the `ui://` view a host draws the result in, or null. */
export function toolDocs(): { name: string; title: string; description: string; args: ArgDoc[]; view: string | null }[] {
  return TOOLS.map((t) => {
    const schema = z.toJSONSchema(t.input, { io: 'input' }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    const args = Object.entries(schema.properties ?? {}).map(([name, p]) => ({
      name,
      required: schema.required?.includes(name) ?? false,
      description: String(p.description ?? ''),
      values: Array.isArray(p.enum) ? p.enum.map(String) : null,
      default: p.default ?? null,
    }));
    return { name: t.name, title: t.title, description: t.description, args, view: t.view ? viewUri(t.view) : null };
  });
}
