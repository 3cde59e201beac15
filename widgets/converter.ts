import { KARATS, purity, type Karat } from '../lib/reference/karats';
import { METAL_IDS, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import { perUnit, UNITS, type Unit } from '../lib/reference/units';
import { fill, money, number, priceDecimals, unitWord, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
import type { Strings } from './i18n';
import type { CommonOptions } from './options';
import { metalName, staleBadge } from './price';

// The converter widget: an amount of money ↔ a weight of a served metal (gold by default), any
// currency of the FX table, every unit of lib/reference/units.ts, and karat purity for gold. A plain GET form,
// so it converts on the server before (or without) its script; the script converts as you type.

export type Direction = 'money-to-gold' | 'gold-to-money';
export const DIRECTIONS: readonly Direction[] = ['money-to-gold', 'gold-to-money'];

export interface ConverterOptions extends CommonOptions {
  metal: MetalId;
  amount: number;
  direction: Direction;
  karat: Karat;
}

/** Price of one `unit` of gold of `karat`, in the currency of `fxRate`. */
export function unitPrice(spotUsdOz: number, fxRate: number, unit: Unit, karat: number): number {
  return perUnit(spotUsdOz * fxRate, unit) * purity(karat);
}

export function convert(amount: number, direction: Direction, price: number): number {
  return direction === 'money-to-gold' ? amount / price : amount * price;
}

/** "24k" in the page's language, its number in the locale's digits. */
export const karatLabel = (karat: number, t: Strings, locale: string) => fill(t.karat, { k: number(karat, locale, 0) });

/** `metal` absent is gold; karats apply to gold only. */
type Line = { amount: number; direction: Direction; currency: string; unit: Unit; karat: number; locale: string; metal?: MetalId };

/** The karat, or for another metal its name, in the template's placeholders. */
function what(o: Line, w: Words): Record<string, string> {
  return !o.metal || o.metal === 'gold' ? { karat: karatLabel(o.karat, w.t, o.locale) } : { metal: metalName(o.metal, w.t) };
}

/** The result line, in words, for the server render and the script alike. */
export function resultText(o: Line, price: number, w: Words): string {
  const out = convert(o.amount, o.direction, price);
  const [cash, weight] = o.direction === 'money-to-gold' ? [o.amount, out] : [out, o.amount];
  const gold = !o.metal || o.metal === 'gold';
  const template = o.direction === 'money-to-gold' ? (gold ? w.t.buys : w.t.buysMetal) : gold ? w.t.worth : w.t.worthMetal;
  return fill(template, {
    money: money(cash, o.currency, o.locale),
    weight: `${number(weight, o.locale, 4)} ${unitWord(w.t, o.unit, 'abbr')}`,
    ...what(o, w),
  });
}

/** "1 troy ounce of 24k = $4,000.00": the price of one unit at this purity (or of the metal). */
export function rateText(o: Line, price: number, w: Words): string {
  return fill(!o.metal || o.metal === 'gold' ? w.t.rate : w.t.rateMetal, {
    n: number(1, o.locale, 0),
    unit: unitWord(w.t, o.unit, 'unit'),
    money: money(price, o.currency, o.locale, priceDecimals(o.unit)),
    ...what(o, w),
  });
}

/** The converter's title: "Gold converter", "Platinum converter". */
export const converterTitle = (metal: MetalId, t: Strings) =>
  metal === 'gold' ? t.converterTitle : fill(t.metalConverterTitle, { name: metalName(metal, t) });

export interface ConverterView {
  opts: ConverterOptions;
  codes: string[];
  spotUsdOz: number | null;
  fxRate: number | null;
  state: DataState;
  origin: string;
  words: Words;
}

const option = (value: string | number, label: string, selected: boolean) =>
  html`<option value="${value}"${selected ? ' selected' : ''}>${label}</option>`;

export function renderConverter(v: ConverterView): SafeHtml {
  const o = v.opts;
  const w = v.words;
  const t = w.t;
  const gold = o.metal === 'gold';
  const price = v.spotUsdOz !== null && v.fxRate !== null ? unitPrice(v.spotUsdOz, v.fxRate, o.unit, gold ? o.karat : 24) : null;
  const badge = staleBadge(v.state, w);
  const share = new Intl.NumberFormat(o.locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const title = converterTitle(o.metal, t);
  return html`<main class="w" aria-label="${title}">
<form method="get" action="/widgets/converter">
<div class="h"><span id="gw-title" data-f="title">${title}</span><span class="badge" data-f="badge"${badge ? '' : ' hidden'}>${badge}</span></div>
<input type="hidden" name="theme" value="${o.theme}"><input type="hidden" name="locale" value="${o.locale}">
<div class="grid">
<div><label for="gw-amount">${t.amount}</label><input id="gw-amount" name="amount" type="number" inputmode="decimal" min="0" step="any" value="${o.amount}" required></div>
<div><label for="gw-direction">${t.direction}</label><select id="gw-direction" name="direction">
${option('money-to-gold', t.moneyToGold, o.direction === 'money-to-gold')}${option('gold-to-money', t.goldToMoney, o.direction === 'gold-to-money')}
</select></div>
<div><label for="gw-currency">${t.currency}</label><select id="gw-currency" name="currency">${v.codes.map((c) => option(c, c, c === o.currency))}</select></div>
<div><label for="gw-unit">${t.weight}</label><select id="gw-unit" name="unit">
${UNITS.map((u) => option(u, unitWord(t, u, 'unit'), o.unit === u))}
</select></div>
<div><label for="gw-metal">${t.metal}</label><select id="gw-metal" name="metal">${METAL_IDS.map((m) => option(m, metalName(m, t), m === o.metal))}</select></div>
<div data-f="karat"${gold ? '' : ' hidden'}><label for="gw-karat">${t.purity}</label><select id="gw-karat" name="karat">${KARATS.map((k) =>
    option(k, `${karatLabel(k, t, o.locale)} (${share.format(purity(k))})`, k === o.karat),
  )}</select></div>
<div class="go"><button type="submit" data-f="submit">${t.submit}</button></div>
</div>
<output class="out" for="gw-metal gw-amount gw-direction gw-currency gw-unit gw-karat" data-f="result" aria-live="polite">${price === null ? t.noConversion : resultText(o, price, w)}</output>
<div class="foot"><span data-f="rate">${price === null ? '' : rateText(o, price, w)}</span></div>
${footer(v.state.age_seconds === null ? t.noPrice : updated(w, v.state.age_seconds), v.origin)}
</form>
</main>`;
}

export const CONVERTER_CSS = `.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(136px,1fr));gap:4px 10px}.grid input,.grid select{width:100%}.go{display:flex;align-items:flex-end}.out{display:block;font-size:18px;font-weight:700;margin:10px 0 2px;font-variant-numeric:tabular-nums}`;
