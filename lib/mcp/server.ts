import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import pkg from '../../package.json';
import { registerCompareGoldToAsset } from './tools/compare-gold-to-asset';
import { registerGetCentralBankReserves } from './tools/get-central-bank-reserves';
import { registerGetGoldHistory } from './tools/get-gold-history';
import { registerGetGoldIntraday } from './tools/get-gold-intraday';
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
  {
    name: 'get_gold_history',
    args: 'range (1m, 3m, 6m, ytd, 1y, 2y, 5y; default 1y)',
    description: 'Daily closes, highs and lows for the range, 52-week high/low, ranges and returns (the history endpoint, points cut to the range)',
  },
  {
    name: 'get_gold_intraday',
    args: 'symbol (xau, xag; default xau), hours (1 to 48, default 24)',
    description: 'The recorded 2-minute series, 14-day retention (the intraday endpoint)',
  },
  {
    name: 'get_central_bank_reserves',
    args: 'country (optional: part of a name or an ISO3 code)',
    description: 'Official holdings in tonnes, ranked, with month-over-month change and reporting month (the reserves endpoint, filtered)',
  },
  {
    name: 'compare_gold_to_asset',
    args: 'symbol (silver, btc, sp500, nasdaq, dxy, eurusd, oil, platinum, palladium; required), range (1m … 5y; default 1y)',
    description: 'Daily OHLCV for gold and the asset over the range, each with its percentage change (two chart endpoint series)',
  },
];

export function createGoldServer(ctx: ToolContext): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION, title: 'Gold market data' }, { instructions: INSTRUCTIONS });
  registerGetGoldPrice(server, ctx);
  registerGetGoldHistory(server);
  registerGetGoldIntraday(server);
  registerGetCentralBankReserves(server);
  registerCompareGoldToAsset(server);
  return server;
}
