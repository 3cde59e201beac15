import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import pkg from '../../package.json';
import { registerGetGoldPrice } from './tools/get-gold-price';

// A fresh MCP server per request (stateless transport). Every tool is a thin adapter over the
// same lib/ function its REST endpoint calls.

export interface ToolContext {
  /** Origin of the request, for the links inside REST bodies. */
  origin: string;
}

export const SERVER_NAME = 'goldapi';
export const SERVER_VERSION = pkg.version;

const INSTRUCTIONS = `Read-only gold market data. Prices are indicative mid-market reference rates, not tradable quotes.
Every result carries data_state: "fresh" (live or within its cache time), "stale" (the upstream is down; the last real value is given with its age in seconds; tell the user it may be out of date) or "unavailable" (no value is known; none is invented, say so rather than guessing).
Use get_gold_price for the current price in any currency and unit, get_gold_intraday for the recorded 2-minute series (up to 48 h), get_gold_history for daily closes and returns (up to 5 years), compare_gold_to_asset to compare gold with another market, and get_central_bank_reserves for official holdings by country.`;

/** The tools as the docs describe them. */
export const TOOL_DOCS: { name: string; args: string; description: string }[] = [
  {
    name: 'get_gold_price',
    args: 'currency (ISO 4217, default USD), unit (oz, gram, kg; default oz)',
    description: 'Live spot with silver, gold/silver ratio, tokenized gold and Bitcoin comparisons (the spot endpoint with compact=1)',
  },
];

export function createGoldServer(ctx: ToolContext): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION, title: 'Gold market data' }, { instructions: INSTRUCTIONS });
  registerGetGoldPrice(server, ctx);
  return server;
}
