import { daysBefore } from '../lib/calendar/dates';
import type { ChartSymbol } from '../lib/reference/instruments';
import { metalById, type IntradaySymbol, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import type { Unit } from '../lib/reference/units';
import type { DateWindow } from '../lib/series/coverage';
import { fill, money, number, priceDecimals, unitWord, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
import type { Strings } from './i18n';
import { CHART_WIDGET_RANGES, drawnQuery, USD_OZ, type ChartWidgetRange, type LineRange } from './kinds';
import type { CommonOptions } from './options';
import { staleBadge } from './price';

// The chart widget: the headline price (server-rendered) and a line over the chosen range, drawn by
// its script from the public API (first as a plain SVG frame, then by lightweight-charts). Every line
// says what it is (decisions §23). For a metal, whose headline is its spot price: one day is the
// first-party intraday spot series; a longer range is the daily spot bars the service records when
// they cover it (decided by the server, lib/series/coverage.ts), else the COMEX futures bars, labelled as
// futures; MAX is the World Bank's monthly averages since 1960. Other assets: the chart endpoint.

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
export const symbolLabel = (symbol: ChartSymbol, t: Strings) => SYMBOL_NAME[symbol](t);

/** Each range's button, in the page's language. */
export const RANGE_KEY = {
  '1d': 'r1d',
  '5d': 'r5d',
  '1mo': 'r1mo',
  '3mo': 'r3mo',
  '6mo': 'r6mo',
  '1y': 'r1y',
  '5y': 'r5y',
  '10y': 'r10y',
  max: 'rMax',
} as const satisfies Record<LineRange, keyof Strings>;

/** The chart symbols that are a served metal: their headline is spot, and so is their line where the service has it. */
export const CHART_METAL: Partial<Record<ChartSymbol, MetalId>> = { xau: 'gold', silver: 'silver', platinum: 'platinum', palladium: 'palladium' };

/**
 * What a range's line is: spot recorded every 2 minutes, daily spot bars, COMEX futures bars, the World Bank's
 * monthly averages, or another asset's own bars.
 */
export type ChartLine = 'intraday' | 'spot' | 'futures' | 'monthly' | 'asset';

/** Calendar days each daily range spans, counted back from today: the window its request asks for and its coverage is judged in. */
export const RANGE_DAYS: Record<Exclude<LineRange, '1d' | 'max'>, number> = {
  '5d': 7,
  '1mo': 31,
  '3mo': 92,
  '6mo': 183,
  '1y': 366,
  '5y': 1827,
  '10y': 3653,
};

/** The window of each daily range, ending today. */
export function rangeWindow(range: keyof typeof RANGE_DAYS, today: string): DateWindow {
  return { from: daysBefore(today, RANGE_DAYS[range]), to: today };
}

/** The metals of the World Bank's monthly series (no palladium), as the history endpoint's `symbol` names them. */
const MONTHLY_SYMBOL: Partial<Record<ChartSymbol, string>> = { xau: 'xau', silver: 'xag', platinum: 'xpt' };

/** A range's line as the page script draws it, decided by the server (decisions §25). */
export interface RangeSeries {
  /** The API request: only the window drawn (`from`), in the currency and unit drawn. */
  url: string;
  line: ChartLine;
  /** What the line is, in the page's language, with its currency and unit for a metal ("" for another asset, which the title names). */
  label: string;
  /** The currency its values are in, and the decimals they are shown with. */
  currency: string;
  decimals: number;
  /** An index or an exchange rate: a number, no currency sign. */
  rate?: true;
  /** The first date drawn: a series answered whole (before the history endpoint took `from`) is cut there. */
  from?: string;
  /**
   * The points come in USD per troy ounce (the recorded 2-minute series) and are drawn in `currency` per this unit at the
   * rate spot uses now, each rounded as spot rounds a price (intradayAtRateNow).
   */
  atRateNow?: { unit: Unit };
}

/** What a chart of a metal is drawn in: the currency and unit asked (checked by the headline's spot answer). */
export interface DrawnIn {
  currency: string;
  unit: Unit;
}

/**
 * The series behind each range: real points only. `covered`: whether the metal's daily spot bars cover the
 * range's window (lib/series/coverage.ts, judged once by the server); they are drawn where they do, else the
 * COMEX futures series, labelled so. Gold's futures and every metal's spot and monthly series come in the
 * currency and unit asked, each point at its own day's rate; the 2-minute series and the other metals'
 * futures bars are USD per troy ounce only, and their label says so.
 */
export function rangeSeries(symbol: ChartSymbol, range: LineRange, covered: boolean, today: string, drawn: DrawnIn, t: Strings): RangeSeries {
  const metal = CHART_METAL[symbol];
  const intraday: IntradaySymbol | null = metal ? metalById(metal).intraday : null;
  const priced = (over: Pick<RangeSeries, 'url' | 'line'> & { from?: string }, inAsked: boolean): RangeSeries => {
    const d = inAsked ? drawn : USD_OZ;
    const label = lineLabel(over.line, t, d);
    if (isRate(symbol)) return { ...over, label, currency: d.currency, decimals: 4, rate: true };
    return { ...over, label, currency: d.currency, decimals: priceDecimals(d.unit) };
  };
  const asked = drawnQuery(drawn);
  if (range === '1d' && intraday) return priced({ url: `/api/v1/intraday?symbol=${intraday}&hours=24`, line: 'intraday' }, false);
  if (range === 'max') {
    const monthly = MONTHLY_SYMBOL[symbol];
    if (monthly) return priced({ url: `/api/v1/history?series=monthly&symbol=${monthly}${asked}`, line: 'monthly' }, true);
    // A metal the monthly series lacks (palladium): its longest daily series. In another currency or unit that is its
    // daily spot bars, which the history endpoint converts at each point's own date's rate (the futures' bars are USD per
    // troy ounce only); in USD per troy ounce, the futures' daily bars since they began.
    if (intraday && asked) return priced({ url: `/api/v1/history?series=spot&symbol=${intraday}${asked}`, line: 'spot' }, true);
    return priced({ url: `/api/v1/chart?symbol=${symbol}&range=max&interval=${metal ? '1d' : '1mo'}`, line: metal ? 'futures' : 'asset' }, false);
  }
  if (range !== '1d' && intraday) {
    const { from } = rangeWindow(range, today);
    if (covered) return priced({ url: `/api/v1/history?series=spot&symbol=${intraday}&from=${from}${asked}`, line: 'spot', from }, true);
    // Gold's futures in another currency or unit: the history endpoint's daily closes, each at its own day's rate. In USD per
    // ounce the chart endpoint's bars of the same future (GC=F) stay, finer for a week or a month, and asked by the range itself.
    if (symbol === 'xau' && asked) return priced({ url: `/api/v1/history?series=futures&from=${from}${asked}`, line: 'futures', from }, true);
  }
  const interval = { '1d': '5m', '5d': '15m', '1mo': '90m', '3mo': '1d', '6mo': '1d', '1y': '1d', '5y': '1wk', '10y': '1wk' }[range];
  return priced({ url: `/api/v1/chart?symbol=${symbol}&range=${range}&interval=${interval}`, line: metal ? 'futures' : 'asset' }, false);
}

/**
 * A price page's 1D line in the page's currency and unit (decisions §33): the recorded 2-minute series is USD per troy
 * ounce, so the page converts its points at the rate spot uses now (the page's live `fx_rate`), and the label says so.
 * Any other line, or a page in USD per troy ounce, is drawn as it comes.
 */
export function intradayAtRateNow(s: RangeSeries, drawn: DrawnIn, t: Strings): RangeSeries {
  if (s.line !== 'intraday' || !drawnQuery(drawn)) return s;
  return {
    ...s,
    label: `${lineLabel('intraday', t, drawn)} ${t.atRateNow}`,
    currency: drawn.currency,
    decimals: priceDecimals(drawn.unit),
    atRateNow: { unit: drawn.unit },
  };
}

const LINE_KEY = { intraday: 'lineIntraday', spot: 'lineSpot', futures: 'lineFutures', monthly: 'lineMonthly' } as const satisfies Record<
  Exclude<ChartLine, 'asset'>,
  keyof Strings
>;

/** What the line is, in the page's language, and what it is in ("COMEX futures (not spot) · EUR/g"); nothing for an asset, which the title names. */
export function lineLabel(line: ChartLine, t: Strings, drawn?: DrawnIn): string {
  if (line === 'asset') return '';
  return drawn ? `${t[LINE_KEY[line]]} · ${drawn.currency}/${unitWord(t, drawn.unit, 'abbr')}` : t[LINE_KEY[line]];
}

export interface ChartOptions extends CommonOptions {
  symbol: ChartSymbol;
  range: ChartWidgetRange;
}

export interface ChartView {
  opts: ChartOptions;
  /** The first range's line and its label. */
  line: ChartLine;
  label: string;
  /** Latest real price to headline (spot for gold and silver), or null. */
  latest: number | null;
  latestCurrency: string;
  /** The headline's decimals: the currency's own, two more for a gram. */
  latestDecimals: number;
  state: DataState;
  origin: string;
  words: Words;
}

export function renderChart(v: ChartView): SafeHtml {
  const o = v.opts;
  const t = v.words.t;
  const badge = staleBadge(v.state, v.words);
  const headline =
    v.latest === null ? '' : isRate(o.symbol) ? number(v.latest, o.locale, 4) : money(v.latest, v.latestCurrency, o.locale, v.latestDecimals);
  return html`<main class="w" aria-label="${chartTitle(o.symbol, t)}">
<div class="h"><span>${symbolLabel(o.symbol, t)}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price">${headline}</div>
<div class="line" data-f="line"${v.label ? '' : ' hidden'}>${v.label}</div>
<div class="ranges" role="group" aria-label="${t.range}">${CHART_WIDGET_RANGES.map(
    (r) => html`<button type="button" data-range="${r}" aria-pressed="${r === o.range ? 'true' : 'false'}">${t[RANGE_KEY[r]]}</button>`,
  )}</div>
<div class="chart" data-f="chart"></div>
<div class="row"><span data-f="change"></span><span data-f="cross" aria-live="polite"></span><button type="button" data-f="log" aria-pressed="false"${
    o.range === 'max' ? '' : ' hidden'
  }>${t.logScale}</button></div>
${footer(v.state.age_seconds === null ? '' : updated(v.words, v.state.age_seconds), v.origin)}
<noscript><p>${t.chartNoscript}</p></noscript>
</main>`;
}

/** "Gold price chart", for the page title and its landmark. */
export const chartTitle = (symbol: ChartSymbol, t: Strings) => fill(t.chartTitle, { name: symbolLabel(symbol, t) });

// The first frame (widgets/scripts/line-frame.ts) lays out as the library does: the plot, the price
// scale's width on the right for the high and the low, the time axis's height below for the first and last times.
export const CHART_CSS = `.line{color:var(--muted);font-size:12px}.ranges{display:flex;gap:4px;flex-wrap:wrap;margin:6px 0}.ranges button,[data-f=log]{padding:2px 8px;font-size:12px;cursor:pointer}.ranges button[aria-pressed=true],[data-f=log][aria-pressed=true]{border-color:var(--gold);color:var(--gold);font-weight:700}.chart{height:200px;position:relative}
.frame{position:absolute;left:0;top:8px;width:calc(100% - 76px);height:calc(100% - 42px)}
.chart span{position:absolute;color:var(--muted);font-size:11px;font-variant-numeric:tabular-nums;white-space:nowrap}
[data-f=hi]{right:0;top:0}[data-f=lo]{right:0;bottom:26px}[data-f=t0]{left:0;bottom:4px}[data-f=t1]{right:76px;bottom:4px}`;

/** An index or an exchange rate: shown with four decimals and no currency sign. */
export function isRate(symbol: ChartSymbol): boolean {
  return symbol === 'eurusd' || symbol === 'dxy';
}
