import type { MetalId } from '@/lib/reference/metals';
import type { Unit } from '@/lib/reference/units';
import { intradayAtRateNow } from '@/widgets/chart';
import { chartSeries } from '@/widgets/data';
import { textFor } from '@/widgets/i18n';
import { PRICE_CHART_RANGES } from '@/widgets/kinds';
import { METAL_SYMBOL, type PriceChartPlan } from './price-chart-plan';

// The price pages' chart plan, decided on the server (it reads the store): for each range, the series that
// covers it (the daily spot bars where lib/series/coverage.ts says they cover its window, else COMEX futures;
// MAX the World Bank's monthly averages, palladium's longest daily series), in the page's currency and unit,
// with its caption in the page's language; 1D, the recorded 2-minute series in USD per troy ounce, converted by the
// page's script at the rate spot uses now (intradayAtRateNow). The chart widget's ranges are decided by the same function.

export async function priceChartPlan(
  page: { metal: MetalId; currency: string; unit: Unit; lang: string },
  nowMs = Date.now(),
): Promise<PriceChartPlan> {
  const drawn = { currency: page.currency.toUpperCase(), unit: page.unit };
  const { t } = textFor(page.lang);
  const series = await chartSeries(METAL_SYMBOL[page.metal], PRICE_CHART_RANGES, drawn, t, nowMs);
  return { series: { ...series, '1d': intradayAtRateNow(series['1d'], drawn, t) } };
}
