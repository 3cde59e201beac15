import { z } from 'zod';
import { getChart } from '../../series/chart';
import { CHART_SYMBOLS, type ChartSymbol } from '../../reference/instruments';
import { Chart } from '../../schemas/chart';
import { DataState, Timestamp } from '../../schemas/common';
import { oneOf } from '../../schemas/query-fields';
import { isUnavailable } from '../../sources/unavailable';
import { McpRangeArg, MCP_RANGE_TO_CHART, MCP_RANGES } from '../ranges';
import { fmt, freshness, tool, toolOutput } from '../tool';

/** The tool's spellings of chart symbols where its published contract differs (`btc` for Bitcoin); every other asset keeps its chart name. */
const SPELLING: Partial<Record<ChartSymbol, string>> = { bitcoin: 'btc' };
const ASSETS = CHART_SYMBOLS.filter((s) => s !== 'xau').map((s) => SPELLING[s] ?? s) as [string, ...string[]];
const CHART_SYMBOL_OF = new Map(CHART_SYMBOLS.map((s) => [SPELLING[s] ?? s, s]));

const Series = Chart.extend({ change_pct: z.number().nullable().meta({ description: 'Last close versus first close over the range, percent' }) });
const Comparison = z
  .object({
    range: z.enum(MCP_RANGES),
    gold: Series,
    asset: Series,
    data_state: DataState.meta({ description: 'The older of the two series’ states' }),
    updated_at: Timestamp,
  })
  .meta({ description: 'Gold and another asset over the same range, daily bars, each as the chart endpoint returns it' });

const pctChange = (points: { c: number }[]) => (points.length > 1 ? Math.round((points[points.length - 1].c / points[0].c - 1) * 10000) / 100 : null);
const RANK = { unavailable: 0, stale: 1, fresh: 2 } as const;

export const compareGoldToAsset = tool({
  name: 'compare_gold_to_asset',
  title: 'Compare gold with another asset',
  description:
    'Daily OHLCV bars for gold (COMEX futures GC=F, USD/oz) and another market over the same range, each with its percentage change over ' +
    'the range: silver, btc (Bitcoin), sp500, nasdaq, dxy (US dollar index), eurusd, oil (WTI), platinum or palladium. Prices are in each ' +
    "instrument's own currency (USD except EUR/USD). data_state is the older of the two series' states.",
  input: z.object({
    symbol: oneOf('symbol', ASSETS).meta({ description: `Asset to compare with gold: ${ASSETS.join(', ')}` }),
    range: McpRangeArg.meta({ description: `Span of the daily bars, counted back from now: ${MCP_RANGES.join(', ')}` }),
  }),
  output: toolOutput(Comparison),
  view: 'chart',
  run: async ({ symbol, range }) => {
    const r = MCP_RANGE_TO_CHART[range];
    const [goldChart, assetChart] = await Promise.all([
      getChart({ symbol: 'xau', range: r, interval: '1d' }),
      getChart({ symbol: CHART_SYMBOL_OF.get(symbol)!, range: r, interval: '1d' }),
    ]);
    if (isUnavailable(goldChart)) return goldChart;
    if (isUnavailable(assetChart)) return assetChart;
    const gold = { ...goldChart, change_pct: pctChange(goldChart.points) };
    const asset = { ...assetChart, change_pct: pctChange(assetChart.points) };
    const worse = RANK[gold.data_state.status] <= RANK[asset.data_state.status] ? gold.data_state : asset.data_state;
    const body = { range, gold, asset, data_state: worse, updated_at: new Date().toISOString() };
    const last = (c: typeof gold) => c.points[c.points.length - 1];
    const summary =
      `Over ${range} (daily bars): gold ${fmt(gold.change_pct)}% (last close ${fmt(last(gold)?.c)} USD/oz), ${asset.source} ` +
      `${fmt(asset.change_pct)}% (last close ${fmt(last(asset)?.c, 4)}${asset.currency ? ` ${asset.currency}` : ''}); ${freshness(worse)}.`;
    return { body, summary };
  },
});
