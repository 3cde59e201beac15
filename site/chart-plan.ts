// What the landing's chart panel can draw, in words, and the plan the server hands its script
// (site/mini-chart.tsx decides it; site/scripts/landing.ts draws it). No server code here: the page's
// script imports it.

export const CHART_LABELS = {
  intraday: 'Spot, recorded every 2 minutes, last 24 hours (USD/oz)',
  spot: 'Daily spot closes, last 3 months (USD/oz)',
  daily: 'Daily closes, last 3 months (COMEX futures, not spot, USD/oz)',
  monthly: 'Monthly average prices since 1960 (World Bank Pink Sheet, CC BY 4.0, USD/oz)',
};

/** The days the daily line spans, counted back from today. */
export const DAILY_DAYS = 92;

/** What the panel draws, decided by the server: each line's request and caption. */
export interface ChartPlan {
  /** The last 3 months of daily closes: spot where the bars cover them, else futures. */
  daily: { url: string; label: string; from: string };
  monthly: { url: string; label: string };
}
