import { COMMON_FINENESS } from '../../reference/fineness';
import { ITEM_IDS } from '../../reference/items';
import { listed, METALS } from '../../reference/metals';
import { UNIT_LIST } from '../../reference/units';
import { metalValue } from '../../prices/value';
import { Value, ValueQuery } from '../../schemas/value';
import { isUnavailable } from '../../sources/unavailable';
import { fmt, freshness, tool, toolOutput } from '../tool';

/** The tool's plain statement of what the figure is and is not: every answer ends with it. */
export const NOT_A_SHOP_PRICE =
  'This is the metal (melt) value at spot, not a dealer’s or jeweller’s price: they sell above it and buy below it, and making charges and taxes are not in it.';

const FINENESS_IN_WORDS = METALS.map((m) => `${m.name.toLowerCase()} ${COMMON_FINENESS[m.id].map((f) => f.ppt).join(', ')}`).join('; ');

export const getMetalValue = tool({
  name: 'get_metal_value',
  title: 'What metal is worth',
  description:
    'What a holding of gold, silver, platinum or palladium is worth at spot, in any of 160+ currencies (USD by default): the melt value, fine troy ounces × ' +
    'the spot USD price × the exchange rate spot uses, 2 decimals, the same figures as get_gold_price to the digit. Give weight (> 0) in unit ' +
    `(default gram; ${UNIT_LIST.map((u) => u.id).join(', ')}) with a purity: karat for gold (24, 22, 21, 18, 14, 10, 9) or fineness for any metal, ` +
    `a fraction (0.925) or parts per thousand (925, 999.9), 1 pure (default pure; common: ${FINENESS_IN_WORDS}); or item, a bullion coin valued by the ` +
    `fine metal its mint states (${listed(ITEM_IDS)}), with qty (default 1). Optional quote: a price asked or offered for the ` +
    'whole, in the currency, answered with premium and premium_pct over the metal value (negative: below it). E.g. "what is my 14k chain of 12 g worth", ' +
    '"a Krugerrand in rand", "one luong in VND", "is EUR 950 for a sovereign fair", "ten pre-1965 dimes". Melt value is what the metal itself is worth; it ' +
    'is not what a dealer or jeweller charges or pays (they sell above it and buy below it; making charges, taxes and collector value are not in it). ' +
    'price is the spot price of the pure metal per unit. data_state is the metal’s own: fresh, stale (both sources down: the last real price, with its age) ' +
    'or unavailable (no price is known; none is invented).',
  input: ValueQuery,
  output: toolOutput(Value),
  run: async (args) => {
    const body = await metalValue(args);
    return isUnavailable(body) ? body : { body, summary: valueSummary(body, args.karat) };
  },
});

/** The text block of get_metal_value: the figure and what it values, the freshness, the quote, and what it is not. */
export function valueSummary(v: Value, karat?: string): string {
  const unitName = UNIT_LIST.find((u) => u.label === v.weight.unit)!.name;
  const metal = v.metal;
  const purity = `${karat ? `${parseInt(karat, 10)}k, ` : ''}${fmt(v.fineness * 1000, 3)} fine`;
  const what = v.item
    ? `${v.qty} × ${v.item.name} (${v.item.issuer}; ${fmt(v.item.fine_oz, 6)} troy oz of fine ${metal} each)`
    : `${fmt(v.weight.value, 6)} ${unitName}${v.weight.value === 1 ? '' : 's'} of ${metal} (${purity})`;
  const quote = v.quote
    ? ` A quote of ${fmt(v.quote.amount)} ${v.currency} is ${fmt(Math.abs(v.quote.premium))} ${v.currency} (${fmt(Math.abs(v.quote.premium_pct))} %) ` +
      `${v.quote.premium >= 0 ? 'above' : 'below'} the metal’s value.`
    : '';
  return (
    `Metal value: ${fmt(v.melt_value)} ${v.currency} for ${what}: ${fmt(v.fine_weight.g, 4)} g (${fmt(v.fine_weight.oz, 6)} troy oz) of fine ${metal}; ` +
    `${freshness(v.data_state)}. Spot: ${fmt(v.price.value, 4)} ${v.currency} per ${unitName} of pure ${metal}.${quote} ${NOT_A_SHOP_PRICE}`
  );
}
