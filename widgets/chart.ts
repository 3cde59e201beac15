import { INSTRUMENTS, type ChartSymbol } from '../lib/chart-catalog';
import type { DataState } from '../lib/schemas/common';
import { ago, money, number } from './format';
import { html, type SafeHtml } from './html';
import { CHART_WIDGET_RANGES, type ChartWidgetRange } from './kinds';
import type { CommonOptions } from './options';
import { footer } from './page';
import { staleBadge } from './price';

// The chart widget: the headline price (server-rendered) and a lightweight-charts line over the
// chosen range, drawn by its script from the public API: the first-party intraday series for one
// day of gold or silver, the chart endpoint for everything else.

/** The API request behind each range: real bars only, at a width the upstream keeps for that span. */
export function seriesUrl(symbol: ChartSymbol, range: ChartWidgetRange): string {
  if (range === '1d' && (symbol === 'xau' || symbol === 'silver')) return `/api/v1/intraday?symbol=${symbol === 'xau' ? 'xau' : 'xag'}&hours=24`;
  const interval = { '1d': '5m', '5d': '15m', '1mo': '90m', '3mo': '1d', '1y': '1d', '5y': '1wk' }[range];
  return `/api/v1/chart?symbol=${symbol}&range=${range}&interval=${interval}`;
}

export interface ChartOptions extends CommonOptions {
  symbol: ChartSymbol;
  range: ChartWidgetRange;
}

export interface ChartView {
  opts: ChartOptions;
  /** Latest real price to headline (spot for gold and silver), or null. */
  latest: number | null;
  latestCurrency: string;
  state: DataState;
  origin: string;
}

export function renderChart(v: ChartView): SafeHtml {
  const o = v.opts;
  const badge = staleBadge(v.state, o.locale);
  const headline = v.latest === null ? '' : isRate(o.symbol) ? number(v.latest, o.locale, 4) : money(v.latest, v.latestCurrency, o.locale);
  const label = INSTRUMENTS[o.symbol].label;
  return html`<main class="w" aria-label="${label} price chart">
<div class="h"><span>${label}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price">${headline}</div>
<div class="ranges" role="group" aria-label="Range">${CHART_WIDGET_RANGES.map(
    (r) => html`<button type="button" data-range="${r}" aria-pressed="${r === o.range ? 'true' : 'false'}">${r.toUpperCase()}</button>`,
  )}</div>
<div class="chart" data-f="chart"></div>
<div class="row"><span data-f="cross" aria-live="polite"></span></div>
${footer(v.state.age_seconds === null ? '' : `updated ${ago(v.state.age_seconds, o.locale)}`, v.origin)}
<noscript><p>The chart needs JavaScript; the price above is live as of loading.</p></noscript>
</main>`;
}

export const CHART_CSS = `.ranges{display:flex;gap:4px;flex-wrap:wrap;margin:6px 0}.ranges button{padding:2px 8px;font-size:12px;cursor:pointer}.ranges button[aria-pressed=true]{border-color:var(--gold);color:var(--gold);font-weight:700}.chart{height:200px;position:relative}`;

/** An index or an exchange rate: shown with four decimals and no currency sign. */
export function isRate(symbol: ChartSymbol): boolean {
  return symbol === 'eurusd' || symbol === 'dxy';
}
