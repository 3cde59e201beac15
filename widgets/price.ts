import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import { ago, money, number, percent, UNIT_WORDS, priceDecimals } from './format';
import { html, type SafeHtml } from './html';
import type { CommonOptions } from './options';

// The price widget: gold in the chosen currency and unit, the day's change, optional silver and
// ratio, how fresh the figure is, and a visible stale or unavailable state. Never a made-up number.

export interface PriceOptions extends CommonOptions {
  silver: boolean;
  ratio: boolean;
}

export interface PriceView {
  opts: PriceOptions;
  /** The spot body, or null when the price is unavailable. */
  spot: Spot | null;
  state: DataState;
  /** Latest daily change of the history series, percent (null when unknown). */
  dayChangePct: number | null;
  origin: string;
}

/** The closed-market line's words, in one place. */
const MARKET_CLOSED = 'Market closed';
const REOPENS = 'reopens';

/** "Market closed · reopens Sun 6:00 PM EST" in the reader's locale, or '' while the market is open.
 *  The server renders in UTC (it does not know the reader's zone); the script redraws in the reader's. */
export function marketLine(market: Spot['market'] | undefined, locale: string, timeZone?: string): string {
  if (!market || market.status !== 'closed') return '';
  const when = new Intl.DateTimeFormat(locale, { weekday: 'short', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
  return `${MARKET_CLOSED} · ${REOPENS} ${when.format(new Date(market.next_change))}`;
}

export function staleBadge(state: DataState, locale: string): string {
  return state.status === 'stale' && state.age_seconds !== null ? `Stale · ${ago(state.age_seconds, locale)}` : '';
}

export function renderPrice(v: PriceView): SafeHtml {
  const { opts, spot, state } = v;
  const badge = staleBadge(state, opts.locale);
  const change = v.dayChangePct;
  const closed = marketLine(spot?.market, opts.locale, 'UTC');
  return html`<main class="w" aria-label="Gold price">
<div class="h"><span>Gold · per ${UNIT_WORDS[opts.unit]}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price" aria-live="polite">${spot ? money(spot.xau.price, spot.xau.currency, opts.locale, priceDecimals(spot.xau.currency, opts.unit)) : 'Price unavailable'}</div>
<div class="row">
<span data-f="change" title="Latest daily change of COMEX gold futures (the history series)" class="${change === null ? '' : change >= 0 ? 'up' : 'down'}"${change === null ? ' hidden' : ''}>${change === null ? '' : `${percent(change, opts.locale)} on the day`}</span>
${opts.silver ? html`<span>Silver <b data-f="silver">${spot?.silver_usd_oz ? money(spot.silver_usd_oz, 'USD', opts.locale) : '—'}</b>/oz</span>` : ''}
${opts.ratio ? html`<span>Gold/silver <b data-f="ratio">${spot?.gold_silver_ratio ? number(spot.gold_silver_ratio, opts.locale) : '—'}</b></span>` : ''}
</div>
<div class="row" data-f="market"${closed ? '' : ' hidden'}>${closed}</div>
<div class="foot"><span data-f="fresh">${state.age_seconds === null ? 'No price has been received yet' : `updated ${ago(state.age_seconds, opts.locale)}`}</span><a href="${v.origin}/" target="_blank" rel="noopener">Gold API</a></div>
</main>`;
}
