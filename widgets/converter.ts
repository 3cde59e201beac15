import { perUnit, type Unit } from '../lib/units';
import { ago, money, number, priceDecimals, UNIT_WORDS } from './format';
import type { DataState } from '../lib/schemas/common';
import { html, type SafeHtml } from './html';
import type { CommonOptions } from './options';
import { footer } from './page';
import { staleBadge } from './price';

// The converter widget: an amount of money ↔ a weight of gold, any currency of the FX table,
// troy ounces, grams or kilograms, and karat purity. A plain GET form, so it converts on the
// server before (or without) its script; the script converts as you type.

export type Direction = 'money-to-gold' | 'gold-to-money';
export const DIRECTIONS: readonly Direction[] = ['money-to-gold', 'gold-to-money'];
export const KARATS = [24, 22, 18, 14] as const;

export interface ConverterOptions extends CommonOptions {
  amount: number;
  direction: Direction;
  karat: (typeof KARATS)[number];
}

/** Fine gold per karat: k/24 (24k counted as pure). */
export const purity = (karat: number) => karat / 24;

/** Price of one `unit` of gold of `karat`, in the currency of `fxRate`. */
export function unitPrice(spotUsdOz: number, fxRate: number, unit: Unit, karat: number): number {
  return perUnit(spotUsdOz * fxRate, unit) * purity(karat);
}

export function convert(amount: number, direction: Direction, price: number): number {
  return direction === 'money-to-gold' ? amount / price : amount * price;
}

/** The result line, in words, for the server render and the script alike. */
export function resultText(o: { amount: number; direction: Direction; currency: string; unit: Unit; karat: number; locale: string }, price: number): string {
  const out = convert(o.amount, o.direction, price);
  const gold = (w: number) => `${number(w, o.locale, 4)} ${o.unit === 'oz' ? 'troy oz' : o.unit === 'gram' ? 'g' : 'kg'} of ${o.karat}k gold`;
  const cash = (m: number) => money(m, o.currency, o.locale, priceDecimals(o.currency, 'oz'));
  return o.direction === 'money-to-gold' ? `${cash(o.amount)} buys ${gold(out)}` : `${gold(o.amount)} is worth ${cash(out)}`;
}

export interface ConverterView {
  opts: ConverterOptions;
  codes: string[];
  spotUsdOz: number | null;
  fxRate: number | null;
  state: DataState;
  origin: string;
}

const option = (value: string | number, label: string, selected: boolean) =>
  html`<option value="${value}"${selected ? ' selected' : ''}>${label}</option>`;

export function renderConverter(v: ConverterView): SafeHtml {
  const o = v.opts;
  const price = v.spotUsdOz !== null && v.fxRate !== null ? unitPrice(v.spotUsdOz, v.fxRate, o.unit, o.karat) : null;
  const badge = staleBadge(v.state, o.locale);
  return html`<main class="w" aria-label="Gold converter">
<form method="get" action="/widgets/converter">
<div class="h"><span id="gw-title">Gold converter</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<input type="hidden" name="theme" value="${o.theme}"><input type="hidden" name="locale" value="${o.locale}">
<div class="grid">
<div><label for="gw-amount">Amount</label><input id="gw-amount" name="amount" type="number" inputmode="decimal" min="0" step="any" value="${o.amount}" required></div>
<div><label for="gw-direction">Convert</label><select id="gw-direction" name="direction">
${option('money-to-gold', 'Money → gold', o.direction === 'money-to-gold')}${option('gold-to-money', 'Gold → money', o.direction === 'gold-to-money')}
</select></div>
<div><label for="gw-currency">Currency</label><select id="gw-currency" name="currency">${v.codes.map((c) => option(c, c, c === o.currency))}</select></div>
<div><label for="gw-unit">Weight</label><select id="gw-unit" name="unit">
${option('oz', 'troy oz', o.unit === 'oz')}${option('gram', 'gram', o.unit === 'gram')}${option('kg', 'kilogram', o.unit === 'kg')}
</select></div>
<div><label for="gw-karat">Purity</label><select id="gw-karat" name="karat">${KARATS.map((k) => option(k, `${k}k (${(purity(k) * 100).toFixed(1)}%)`, k === o.karat))}</select></div>
<div class="go"><button type="submit" data-f="submit">Convert</button></div>
</div>
<output class="out" for="gw-amount gw-direction gw-currency gw-unit gw-karat" data-f="result" aria-live="polite">${price === null ? 'Price unavailable: no conversion is possible right now.' : resultText(o, price)}</output>
<div class="foot"><span data-f="rate">${price === null ? '' : `1 ${UNIT_WORDS[o.unit]} of ${o.karat}k = ${money(price, o.currency, o.locale, priceDecimals(o.currency, o.unit))}`}</span></div>
${footer(v.state.age_seconds === null ? 'No price has been received yet' : `updated ${ago(v.state.age_seconds, o.locale)}`, v.origin)}
</form>
</main>`;
}

export const CONVERTER_CSS = `.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(136px,1fr));gap:4px 10px}.grid input,.grid select{width:100%}.go{display:flex;align-items:flex-end}.out{display:block;font-size:18px;font-weight:700;margin:10px 0 2px;font-variant-numeric:tabular-nums}`;
