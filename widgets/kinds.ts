import type { ChartRange } from '../lib/reference/instruments';

// The widgets a publisher can embed, with the frame title and the height a frame starts at before
// the widget reports its own. embed.js, the widget pages and the docs builder all read them here.

export const WIDGETS = {
  price: { title: 'Gold price', height: 150 },
  chart: { title: 'Gold price chart', height: 340 },
  converter: { title: 'Gold converter', height: 330 },
} as const;
export type WidgetName = keyof typeof WIDGETS;
export const WIDGET_NAMES = Object.keys(WIDGETS) as WidgetName[];

/** The ranges the chart widget offers, each drawn from real bars at a width the upstream keeps for that span; `max`: since 1960, monthly. */
export const CHART_WIDGET_RANGES = ['1d', '5d', '1mo', '3mo', '1y', '5y', 'max'] as const satisfies readonly ChartRange[];
export type ChartWidgetRange = (typeof CHART_WIDGET_RANGES)[number];

/** The ranges the price pages' chart offers (decisions §27); `?range=` on a page names one of them. */
export const PRICE_CHART_RANGES = ['1d', '5d', '1mo', '6mo', '1y', '5y', '10y', 'max'] as const satisfies readonly ChartRange[];
export type PriceChartRange = (typeof PRICE_CHART_RANGES)[number];

/** Every range a chart line is drawn over: the widget's and the price pages'. */
export type LineRange = ChartWidgetRange | PriceChartRange;

/** What every series is in at its source, and every chart by default: US dollars per troy ounce. */
export const USD_OZ = { currency: 'USD', unit: 'oz' } as const;

/**
 * The part of a history request that asks a line in another currency or unit (each point at its own day's rate):
 * empty for USD per troy ounce, the series' own. The chart widget and the landing's panel both ask this way.
 */
export function drawnQuery(drawn: { currency: string; unit: string }): string {
  return drawn.currency === USD_OZ.currency && drawn.unit === USD_OZ.unit ? '' : `&currency=${drawn.currency}&unit=${drawn.unit}`;
}
