import { CHART_API_NAME } from './upstream/chart';
import { CRYPTO_API_NAME } from './upstream/crypto';
import { FX_API_NAME } from './upstream/fx';
import { GOLD_API_NAME } from './upstream/gold-api';
import { QUOTES_API_NAME } from './upstream/quotes';
import { RESERVES_API_NAME } from './upstream/reserves';

// Every upstream the service calls, one entry each: the status page, GET /api/v1/status and the MCP tool
// iterate this list. `name` is the name its adapter passes to getJson (so its recorded attempts are found);
// a new source is one more line here. Until an upstream is first called it reads `unused`.

export interface UpstreamEntry {
  /** Stable identifier in the status answer. */
  id: string;
  /** The name its adapter records attempts under, and shows as attribution. */
  name: string;
  /** What the service takes from it, in a few words. */
  role: string;
}

export const UPSTREAMS: readonly UpstreamEntry[] = [
  { id: 'gold-api', name: GOLD_API_NAME, role: 'Live spot prices (primary)' },
  { id: 'swissquote', name: QUOTES_API_NAME, role: 'Live spot bid and ask (second source)' },
  { id: 'fx', name: FX_API_NAME, role: 'FX table (160+ currencies)' },
  { id: 'frankfurter', name: 'frankfurter.dev', role: 'Historical FX rates' },
  { id: 'coingecko', name: CRYPTO_API_NAME, role: 'Tokenized gold and Bitcoin' },
  { id: 'chart', name: CHART_API_NAME, role: 'Chart OHLCV and the futures history' },
  { id: 'imf', name: RESERVES_API_NAME, role: 'Central-bank gold reserves' },
  { id: 'world-bank', name: 'World Bank', role: 'Monthly average prices since 1960' },
];
