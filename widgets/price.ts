import { metalById, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import { priceIn } from '../lib/prices/price-in';
import type { Unit } from '../lib/reference/units';
import { ago, fill, money, number, percent, priceDecimals, signedMoney, unitWord, updated, type Words } from './format';
import type { Strings } from './i18n';
import { footer, html, type SafeHtml } from './html';
import type { CommonOptions } from './options';

// The price widget: a served metal (gold by default) in the chosen currency and unit, its change since
// the previous close (spot only), optional silver and ratio, how fresh the figure is, and a visible stale
// or unavailable state. Never a made-up number, and never a figure of one instrument beside another's price.

export interface PriceOptions extends CommonOptions {
  /** The metal shown; gold when absent. */
  metal?: MetalId;
  silver: boolean;
  ratio: boolean;
}

/** The price of one `unit` of `metal` in the spot answer's currency, rounded as spot rounds `xau.price`; null when that metal is unavailable. */
export function metalPrice(spot: Spot, metal: MetalId, unit: Unit): number | null {
  if (metal === 'gold') return spot.xau.price;
  const usd = spot[metalById(metal).usdField as 'silver_usd_oz'];
  return usd === null || usd === undefined ? null : priceIn(usd, spot.fx_rate, unit);
}

/** The state of the metal's own group: an outage of platinum is platinum's, not gold's. */
export function metalState(spot: Spot | null, metal: MetalId, fallback: DataState): DataState {
  return spot?.groups?.[metal] ?? fallback;
}

/** The metal's name in the page's language ("Platinum"). */
export const metalName = (metal: MetalId, t: Strings) => t[metal];

/** "Gold price" or "Platinum price" in the page's language. */
export const priceTitle = (metal: MetalId, t: Strings) => (metal === 'gold' ? t.priceTitle : fill(t.metalPriceTitle, { name: metalName(metal, t) }));

export interface PriceView {
  opts: PriceOptions;
  /** The spot body, or null when the price is unavailable. */
  spot: Spot | null;
  state: DataState;
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

/** "▲ +$12.30 (+0.45%) since the previous close" with its direction (the arrow and sign say it, not the colour alone), or null when unknown. */
export function changeLine(
  spot: Spot | null | undefined,
  metal: MetalId,
  w: Words,
  locale: string,
  unit: string,
): { text: string; title: string; dir: 'up' | 'down' | 'flat' } | null {
  // Each metal's own change (spot's `change`, `silver_change`, …), in the asked currency and unit.
  const c = spot?.[metalById(metal).changeField];
  if (!spot || !c || c.state !== 'ok') return null;
  return changeText(c, spot.xau.currency, w, locale, unit);
}

/** The same line from the figures alone (spot's change, or a price event's): null while either is unknown. */
export function changeText(
  c: { change: number | null; change_pct: number | null; previous_close_date: string | null },
  currency: string,
  w: Words,
  locale: string,
  unit: string,
): { text: string; title: string; dir: 'up' | 'down' | 'flat' } | null {
  if (c.change === null || c.change_pct === null) return null;
  const dir = c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'flat';
  const text = fill(w.t.sinceClose, {
    arrow: dir === 'up' ? '▲' : dir === 'down' ? '▼' : '▶',
    change: signedMoney(c.change, currency, locale, priceDecimals(unit)),
    pct: percent(c.change_pct, locale),
  });
  return { text, title: fill(w.t.changeTitle, { date: c.previous_close_date ?? '' }), dir };
}

export function staleBadge(state: DataState, w: Words): string {
  return state.status === 'stale' && state.age_seconds !== null ? fill(w.t.stale, { time: ago(state.age_seconds, w.lang) }) : '';
}

export function renderPrice(v: PriceView): SafeHtml {
  const { opts, spot, words } = v;
  const metal = opts.metal ?? 'gold';
  const state = metalState(spot, metal, v.state);
  const t = words.t;
  const badge = staleBadge(state, words);
  const change = changeLine(spot, metal, words, opts.locale, opts.unit);
  const closed = marketLine(spot?.market, words, opts.locale, 'UTC');
  const price = spot ? metalPrice(spot, metal, opts.unit) : null;
  return html`<main class="w" aria-label="${priceTitle(metal, t)}">
<div class="h"><span>${metalName(metal, t)} · ${unitWord(t, opts.unit, 'per')}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<div class="big" data-f="price" aria-live="polite">${spot && price !== null ? money(price, spot.xau.currency, opts.locale, priceDecimals(opts.unit)) : t.priceUnavailable}</div>
<div class="row"><span data-f="change" title="${change?.title ?? ''}" class="${change?.dir ?? ''}"${change === null ? ' hidden' : ''}>${change?.text ?? ''}</span></div>
<div class="row">
${opts.silver ? html`<span>${t.silver} <b data-f="silver">${spot?.silver_usd_oz ? money(spot.silver_usd_oz, 'USD', opts.locale) : '—'}</b>${t.perOzShort}</span>` : ''}
${opts.ratio ? html`<span>${t.ratio} <b data-f="ratio">${spot?.gold_silver_ratio ? number(spot.gold_silver_ratio, opts.locale) : '—'}</b></span>` : ''}
</div>
<div class="row" data-f="market"${closed ? '' : ' hidden'}>${closed}</div>
${footer(state.age_seconds === null ? t.noPrice : updated(words, state.age_seconds), v.origin)}
</main>`;
}
