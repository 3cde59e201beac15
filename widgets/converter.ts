import { COMMON_FINENESS, finenessFraction, isFineness } from '../lib/reference/fineness';
import { KARATS, purity } from '../lib/reference/karats';
import { METAL_IDS, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import { exactPriceIn } from '../lib/prices/price-in';
import { UNITS, type Unit } from '../lib/reference/units';
import { fill, money, number, priceDecimals, unitWord, updated, type Words } from './format';
import { footer, html, type SafeHtml } from './html';
import type { Strings } from './i18n';
import type { CommonOptions } from './options';
import { metalName, staleBadge } from './price';

// The converter widget: an amount of money ↔ a weight of a served metal (gold by default), any currency of the FX
// table, every unit of lib/reference/units.ts, at a purity: a karat for gold, a fineness for any metal. What it shows
// is the metal value at spot (lib/prices/price-in.ts), never a shop's price, and it says so. A plain GET form, so it
// converts on the server before (or without) its script; the script converts as you type.

export type Direction = 'money-to-gold' | 'gold-to-money';
export const DIRECTIONS: readonly Direction[] = ['money-to-gold', 'gold-to-money'];

export interface ConverterOptions extends CommonOptions {
  metal: MetalId;
  amount: number;
  direction: Direction;
  /** The purity chosen, as the form's `fineness` field writes it: a gold karat (`18k`) or parts per thousand (`925`, `999.9`; `1000` pure). */
  purity: string;
}

/** Pure metal, as the purity field writes it. */
export const PURE = '1000';

/** The purities the form offers for `metal`: for gold its karats, then the common finenesses; for the others pure, then theirs. */
export function purities(metal: MetalId): string[] {
  const common = COMMON_FINENESS[metal].map((f) => String(f.ppt));
  return metal === 'gold' ? [...KARATS.map((k) => `${k}k`), ...common] : [PURE, ...common];
}

/** The fine share of a purity: a karat ÷ 24, parts per thousand ÷ 1000. */
export function fineShareOf(p: string): number {
  const karat = /^(\d+)k$/.exec(p);
  return karat ? purity(Number(karat[1])) : finenessFraction(Number(p));
}

/**
 * The purity a query asks for: `fineness` (a fraction, parts per thousand, or for gold a karat such as `18k`), else gold's
 * `karat`, else pure (24k for gold). Anything else falls back to that default, as every widget option does.
 */
export function purityFrom(metal: MetalId, fineness: string | null, karat: string | null): string {
  const pure = metal === 'gold' ? '24k' : PURE;
  const karatOf = (k: number) => (metal === 'gold' && (KARATS as readonly number[]).includes(k) ? `${k}k` : null);
  const f = (fineness ?? '').trim().toLowerCase();
  if (/^\d{1,2}k$/.test(f)) return karatOf(parseInt(f, 10)) ?? pure;
  if (f.length <= 12 && /^\d*\.?\d+$/.test(f) && isFineness(Number(f))) {
    // Parts per thousand as the form writes them, to 0.01 per thousand.
    const ppt = String(Math.round(finenessFraction(Number(f)) * 100_000) / 100);
    return ppt === PURE ? pure : ppt;
  }
  return (karat !== null && karatOf(Number(karat))) || pure;
}

/** Price of one `unit` of the metal at fine share `fineness`, in the currency of `fxRate`: the one price function, unrounded. */
export function unitPrice(spotUsdOz: number, fxRate: number, unit: Unit, fineness: number): number {
  return exactPriceIn(spotUsdOz, fxRate, unit, fineness);
}

export function convert(amount: number, direction: Direction, price: number): number {
  return direction === 'money-to-gold' ? amount / price : amount * price;
}

/** "24k" in the page's language, its number in the locale's digits. */
export const karatLabel = (karat: number, t: Strings, locale: string) => fill(t.karat, { k: number(karat, locale, 0) });

/** A purity in words: "18k", or parts per thousand in the locale's digits ("999.9"). */
export function purityLabel(p: string, t: Strings, locale: string): string {
  const karat = /^(\d+)k$/.exec(p);
  if (karat) return karatLabel(Number(karat[1]), t, locale);
  return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 2 }).format(Number(p));
}

/** `metal` absent is gold, at `purity` (absent: pure). */
type Line = { amount: number; direction: Direction; currency: string; unit: Unit; purity?: string; locale: string; metal?: MetalId };

/** The purity, or for another metal its name with its fineness, in the template's placeholders. */
function what(o: Line, w: Words): Record<string, string> {
  return purityWords(o.metal ?? 'gold', o.purity ?? (o.metal && o.metal !== 'gold' ? PURE : '24k'), w.t, o.locale);
}

/** The placeholders of the metal-value templates (`meltOf`, `meltOfMetal`, …): gold's `karat`, another metal's name and fineness. */
export function purityWords(metal: MetalId, purity: string, t: Strings, locale: string): Record<string, string> {
  if (metal === 'gold') return { karat: purityLabel(purity, t, locale) };
  const name = metalName(metal, t);
  return { metal: purity === PURE ? name : `${name} (${purityLabel(purity, t, locale)})` };
}

/** The result line, in words, for the server render and the script alike: the metal value, never a price of an item. */
export function resultText(o: Line, price: number, w: Words): string {
  const out = convert(o.amount, o.direction, price);
  const [cash, weight] = o.direction === 'money-to-gold' ? [o.amount, out] : [out, o.amount];
  const gold = !o.metal || o.metal === 'gold';
  const template = o.direction === 'money-to-gold' ? (gold ? w.t.meltIs : w.t.meltIsMetal) : gold ? w.t.meltOf : w.t.meltOfMetal;
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
  const price = v.spotUsdOz !== null && v.fxRate !== null ? unitPrice(v.spotUsdOz, v.fxRate, o.unit, fineShareOf(o.purity)) : null;
  const badge = staleBadge(v.state, w);
  const title = converterTitle(o.metal, t);
  const offered = purities(o.metal);
  // A fineness asked for that the list does not offer is offered too, first, so the form shows what was converted.
  const options = offered.includes(o.purity) ? offered : [o.purity, ...offered];
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
<div><label for="gw-purity">${t.purity}</label><select id="gw-purity" name="fineness">${options.map((p) => option(p, purityOption(p, t, o.locale), p === o.purity))}</select></div>
<div class="go"><button type="submit" data-f="submit">${t.submit}</button></div>
</div>
<output class="out" for="gw-metal gw-amount gw-direction gw-currency gw-unit gw-purity" data-f="result" aria-live="polite">${price === null ? t.noConversion : resultText(o, price, w)}</output>
<div class="foot"><span data-f="rate">${price === null ? '' : rateText(o, price, w)}</span></div>
<p class="note">${t.meltNote}</p>
${footer(v.state.age_seconds === null ? t.noPrice : updated(w, v.state.age_seconds), v.origin)}
</form>
</main>`;
}

/** An option of the purity list: "18k (75.0%)", "925 (92.5%)". */
export function purityOption(p: string, t: Strings, locale: string): string {
  const share = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 });
  return `${purityLabel(p, t, locale)} (${share.format(fineShareOf(p))})`;
}

export const CONVERTER_CSS = `.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(136px,1fr));gap:4px 10px}.grid input,.grid select{width:100%}.go{display:flex;align-items:flex-end}.out{display:block;font-size:18px;font-weight:700;margin:10px 0 2px;font-variant-numeric:tabular-nums}.note{margin:6px 0 0;font-size:12px;opacity:.8}`;
