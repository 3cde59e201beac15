import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import { ago, fill, money, number, percent, priceDecimals, unitWord, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
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
  words: Words;
}

/** "Market closed · Reopens Sun 6:00 PM EST" in the reader's words and locale, or '' while the market is open.
 *  The server renders in UTC (it does not know the reader's zone); the script redraws in the reader's. */
export function marketLine(market: Spot['market'] | undefined, w: Words, locale: string, timeZone?: string): string {
  if (!market || market.status !== 'closed') return '';
  const when = new Intl.DateTimeFormat(locale, { weekday: 'short', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
  return `${w.t.marketClosed} · ${fill(w.t.reopens, { time: when.format(new Date(market.next_change)) })}`;
}

export function staleBadge(state: DataState, w: Words): string {
  return state.status === 'stale' && state.age_seconds !== null ? fill(w.t.stale, { time: ago(state.age_seconds, w.lang) }) : '';
}

export function renderPrice(v: PriceView): SafeHtml {
  const { opts, spot, state, words } = v;
  const t = words.t;
  const badge = staleBadge(state, words);
  const change = v.dayChangePct;
  const closed = marketLine(spot?.market, words, opts.locale, 'UTC');
  return html`<main class="w" aria-label="${t.priceTitle}">
<div class="h"><span>${t.gold} · ${unitWord(t, opts.unit, 'per')}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price" aria-live="polite">${spot ? money(spot.xau.price, spot.xau.currency, opts.locale, priceDecimals(spot.xau.currency, opts.unit)) : t.priceUnavailable}</div>
<div class="row">
<span data-f="change" title="${t.changeTitle}" class="${change === null ? '' : change >= 0 ? 'up' : 'down'}"${change === null ? ' hidden' : ''}>${change === null ? '' : fill(t.dayChange, { pct: percent(change, opts.locale) })}</span>
${opts.silver ? html`<span>${t.silver} <b data-f="silver">${spot?.silver_usd_oz ? money(spot.silver_usd_oz, 'USD', opts.locale) : '—'}</b>${t.perOzShort}</span>` : ''}
${opts.ratio ? html`<span>${t.ratio} <b data-f="ratio">${spot?.gold_silver_ratio ? number(spot.gold_silver_ratio, opts.locale) : '—'}</b></span>` : ''}
</div>
<div class="row" data-f="market"${closed ? '' : ' hidden'}>${closed}</div>
${footer(state.age_seconds === null ? t.noPrice : updated(words, state.age_seconds), v.origin)}
</main>`;
}
