import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { chartState, getChart } from '../../chart';
import { Chart } from '../../schemas/chart';
import { DataState, Timestamp } from '../../schemas/common';
import { answer, fmt, freshness, toolOutput } from '../result';

const ASSETS = ['silver', 'btc', 'sp500', 'nasdaq', 'dxy', 'eurusd', 'oil', 'platinum', 'palladium'] as const;
const RANGES = ['1m', '3m', '6m', 'ytd', '1y', '2y', '5y'] as const;
/** The tool's range words onto the chart endpoint's. */
const CHART_RANGE: Record<(typeof RANGES)[number], string> = { '1m': '1mo', '3m': '3mo', '6m': '6mo', ytd: 'ytd', '1y': '1y', '2y': '2y', '5y': '5y' };

const Series = Chart.extend({ change_pct: z.number().nullable().meta({ description: 'Last close versus first close over the range, percent' }) });
const Comparison = z
  .object({
    range: z.enum(RANGES),
    gold: Series,
    asset: Series,
    data_state: DataState.meta({ description: 'The older of the two series’ states' }),
    updated_at: Timestamp,
  })
  .meta({ description: 'Gold and another asset over the same range, daily bars, each as the chart endpoint returns it' });

const Input = z.object({
  symbol: z.enum(ASSETS, { error: `symbol must be one of: ${ASSETS.join(', ')}` }).describe(`Asset to compare with gold: ${ASSETS.join(', ')}`),
  range: z.enum(RANGES, { error: `range must be one of: ${RANGES.join(', ')}` }).default('1y').describe('1m, 3m, 6m, ytd, 1y, 2y or 5y'),
});

const pctChange = (points: { c: number }[]) => (points.length > 1 ? Math.round((points[points.length - 1].c / points[0].c - 1) * 10000) / 100 : null);
const RANK = { unavailable: 0, stale: 1, fresh: 2 } as const;

// Built once: a server is made per request, its schemas need not be.
const Output = toolOutput(Comparison);

export function registerCompareGoldToAsset(server: McpServer) {
  server.registerTool(
    'compare_gold_to_asset',
    {
      title: 'Compare gold with another asset',
      description:
        'Daily OHLCV bars for gold (COMEX futures GC=F, USD/oz) and another market over the same range, each with its percentage change over ' +
        'the range: silver, btc (Bitcoin), sp500, nasdaq, dxy (US dollar index), eurusd, oil (WTI), platinum or palladium. Prices are in each ' +
        "instrument's own currency (USD except EUR/USD). data_state is the older of the two series' states.",
      inputSchema: Input,
      outputSchema: Output,
      annotations: { readOnlyHint: true, openWorldHint: true, title: 'Compare gold with another asset' },
    },
    ({ symbol, range }) =>
      answer(async () => {
        const r = CHART_RANGE[range];
        const [goldChart, assetChart] = await Promise.all([
          getChart({ symbol: 'xau', range: r, interval: '1d' }),
          getChart({ symbol: symbol === 'btc' ? 'bitcoin' : symbol, range: r, interval: '1d' }),
        ]);
        const gold = { ...goldChart, change_pct: pctChange(goldChart.points) };
        const asset = { ...assetChart, change_pct: pctChange(assetChart.points) };
        const worse = RANK[gold.data_state.status] <= RANK[asset.data_state.status] ? gold.data_state : asset.data_state;
        const body = { range, gold, asset, data_state: worse, updated_at: new Date().toISOString() };
        const last = (c: typeof gold) => c.points[c.points.length - 1];
        const summary =
          `Over ${range} (daily bars): gold ${fmt(gold.change_pct)}% (last close ${fmt(last(gold)?.c)} USD/oz), ${asset.source} ` +
          `${fmt(asset.change_pct)}% (last close ${fmt(last(asset)?.c, 4)}${asset.currency ? ` ${asset.currency}` : ''}); ${freshness(worse)}.`;
        return { body, summary };
      }, chartState),
  );
}
