import type { ChartSymbol } from '@/lib/reference/instruments';
import type { MetalId } from '@/lib/reference/metals';
import type { RangeSeries } from '@/widgets/chart';
import { PRICE_CHART_RANGES, type PriceChartRange } from '@/widgets/kinds';

// The price pages' chart (decisions §27): what each range draws, decided by the server (site/price-chart.ts)
// and handed to the page's script in the chart section's `data-plan`; and the reading of a page's `?range=`.
// No server code here: the page's script imports it.

/** The chart symbol of each metal a price page is about. */
export const METAL_SYMBOL: Record<MetalId, ChartSymbol> = { gold: 'xau', silver: 'silver', platinum: 'platinum', palladium: 'palladium' };

/** What the chart of one page draws: per range, its request, what its line is, its caption, currency and decimals. */
export interface PriceChartPlan {
  series: Record<PriceChartRange, RangeSeries>;
}

/** The range a page opens on when neither its URL nor its section names one. */
export const DEFAULT_PRICE_CHART_RANGE: PriceChartRange = '1y';

/** Spellings of a range a person may type in a URL, beside the buttons' own (`1m` for `1mo`, `6m` for `6mo`). */
const ALIASES: Record<string, PriceChartRange> = { '1m': '1mo', '6m': '6mo', all: 'max' };

/** The range a `?range=` (or the section's `data-range`) names, any case; null for none or one the chart does not offer. */
export function pickRange(value: string | null | undefined): PriceChartRange | null {
  const v = value?.trim().toLowerCase();
  if (!v) return null;
  if ((PRICE_CHART_RANGES as readonly string[]).includes(v)) return v as PriceChartRange;
  return Object.hasOwn(ALIASES, v) ? ALIASES[v] : null;
}
