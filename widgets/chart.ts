import type { ChartSymbol } from '../lib/reference/instruments';
import type { DataState } from '../lib/schemas/common';
import { fill, money, number, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
import type { Strings } from './i18n';
import { CHART_WIDGET_RANGES, type ChartWidgetRange } from './kinds';
import type { CommonOptions } from './options';
import { staleBadge } from './price';

// The chart widget: the headline price (server-rendered) and a line over the chosen range, drawn by
// its script from the public API (first as a plain SVG frame, then by lightweight-charts): the
// first-party intraday series for one day of gold or silver, the chart endpoint for everything else.

/** Each asset's name in the page's language; index and pair names read the same everywhere. */
const SYMBOL_NAME: Record<ChartSymbol, (t: Strings) => string> = {
  xau: (t) => t.gold,
  silver: (t) => t.silver,
  bitcoin: (t) => t.bitcoin,
  sp500: () => 'S&P 500',
  nasdaq: () => 'Nasdaq',
  dxy: (t) => t.dxy,
  eurusd: () => 'EUR/USD',
  oil: (t) => t.oil,
  platinum: (t) => t.platinum,
  palladium: (t) => t.palladium,
};
const symbolLabel = (symbol: ChartSymbol, t: Strings) => SYMBOL_NAME[symbol](t);

const RANGE_KEY = { '1d': 'r1d', '5d': 'r5d', '1mo': 'r1mo', '3mo': 'r3mo', '1y': 'r1y', '5y': 'r5y' } as const satisfies Record<
  ChartWidgetRange,
  keyof Strings
>;

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
  words: Words;
}

export function renderChart(v: ChartView): SafeHtml {
  const o = v.opts;
  const t = v.words.t;
  const badge = staleBadge(v.state, v.words);
  const headline = v.latest === null ? '' : isRate(o.symbol) ? number(v.latest, o.locale, 4) : money(v.latest, v.latestCurrency, o.locale);
  return html`<main class="w" aria-label="${chartTitle(o.symbol, t)}">
<div class="h"><span>${symbolLabel(o.symbol, t)}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price">${headline}</div>
<div class="ranges" role="group" aria-label="${t.range}">${CHART_WIDGET_RANGES.map(
    (r) => html`<button type="button" data-range="${r}" aria-pressed="${r === o.range ? 'true' : 'false'}">${t[RANGE_KEY[r]]}</button>`,
  )}</div>
<div class="chart" data-f="chart"></div>
<div class="row"><span data-f="cross" aria-live="polite"></span></div>
${footer(v.state.age_seconds === null ? '' : updated(v.words, v.state.age_seconds), v.origin)}
<noscript><p>${t.chartNoscript}</p></noscript>
</main>`;
}

/** "Gold price chart", for the page title and its landmark. */
export const chartTitle = (symbol: ChartSymbol, t: Strings) => fill(t.chartTitle, { name: symbolLabel(symbol, t) });

// The first frame (widgets/scripts/line-frame.ts) lays out as the library does: the plot, the price
// scale's width on the right for the high and the low, the time axis's height below for the first and last times.
export const CHART_CSS = `.ranges{display:flex;gap:4px;flex-wrap:wrap;margin:6px 0}.ranges button{padding:2px 8px;font-size:12px;cursor:pointer}.ranges button[aria-pressed=true]{border-color:var(--gold);color:var(--gold);font-weight:700}.chart{height:200px;position:relative}
.frame{position:absolute;left:0;top:8px;width:calc(100% - 76px);height:calc(100% - 42px)}
.chart span{position:absolute;color:var(--muted);font-size:11px;font-variant-numeric:tabular-nums;white-space:nowrap}
[data-f=hi]{right:0;top:0}[data-f=lo]{right:0;bottom:26px}[data-f=t0]{left:0;bottom:4px}[data-f=t1]{right:76px;bottom:4px}`;

/** An index or an exchange rate: shown with four decimals and no currency sign. */
export function isRate(symbol: ChartSymbol): boolean {
  return symbol === 'eurusd' || symbol === 'dxy';
}
