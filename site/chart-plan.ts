// What the landing's chart panel can draw, in words, and the plan the server hands its script
// (site/mini-chart.tsx decides it; site/scripts/landing.ts draws it). No server code here: the page's
// script imports it.

import { USD_OZ } from '../widgets/kinds';

/** What a line is drawn in: a currency and a unit, as the history endpoint takes them. */
export interface DrawnIn {
  currency: string;
  unit: string;
}

/** The currencies the panel offers (every one the central banks publish is in the API; these are the most asked). */
export const CHART_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CNY', 'INR', 'AED', 'AUD', 'CAD', 'HKD', 'SGD', 'TRY', 'ZAR'] as const;

export type ChartLineKind = 'intraday' | 'spot' | 'daily' | 'monthly';

/**
 * The caption of a line, naming what it is and what it is in. The recorded 2-minute series is USD per troy
 * ounce only; a monthly line starts where the series does in that currency (`since`: 1960 in USD, the
 * currency's first reference rate otherwise).
 */
export function chartLabel(line: ChartLineKind, drawn: DrawnIn = USD_OZ, since = '1960'): string {
  const inAsked = `${drawn.currency}/${drawn.unit}`;
  if (line === 'intraday') return 'Spot, recorded every 2 minutes, last 24 hours (USD/oz)';
  if (line === 'spot') return `Daily spot closes, last 3 months (${inAsked})`;
  if (line === 'daily') return `Daily closes, last 3 months (COMEX futures, not spot, ${inAsked})`;
  return `Monthly average prices since ${since} (World Bank Pink Sheet, CC BY 4.0, ${inAsked})`;
}

/** The captions in USD per troy ounce, the panel's default. */
export const CHART_LABELS = {
  intraday: chartLabel('intraday'),
  spot: chartLabel('spot'),
  daily: chartLabel('daily'),
  monthly: chartLabel('monthly'),
};

/** The days the daily line spans, counted back from today. */
export const DAILY_DAYS = 92;

/** What the panel draws, decided by the server: each line's request (in USD per troy ounce) and caption. */
export interface ChartPlan {
  /** The last 3 months of daily closes: spot where the bars cover them, else futures. */
  daily: { url: string; line: 'spot' | 'daily'; label: string; from: string };
  monthly: { url: string; label: string };
}
