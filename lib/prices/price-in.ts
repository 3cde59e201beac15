import { perUnit, round, UNIT_DECIMALS, type Unit } from '../reference/units';

// The one computation of a price in a currency and unit (decisions §33): USD per troy ounce × the currency's rate per USD,
// per unit, × the fine share of the alloy. Spot (`xau.price`, `karats`), price.txt, the metal value and the converter
// widget call it; every other surface that shows a price (pages, the other widgets, alerts, the sharing image) is to
// call it too, so that no two surfaces can disagree by a digit. Rounding happens once, on output, from unrounded inputs.

/** The exact figure, unrounded: `usdOz` × `rate` per `unit`, of `fineness` (fine metal per unit of alloy, 0 < f ≤ 1). */
export function exactPriceIn(usdOz: number, rate: number, unit: Unit, fineness = 1): number {
  return perUnit(usdOz * rate, unit) * fineness;
}

/** A price as spot shows it: the exact figure rounded once to the unit's decimals (gram and grain 4, the others 2). */
export function priceIn(usdOz: number, rate: number, unit: Unit, fineness = 1): number {
  return round(exactPriceIn(usdOz, rate, unit, fineness), UNIT_DECIMALS[unit]);
}

/** Troy ounces in one `unit` (the troy ounce and the kilogram by their exact constants, as `perUnit` prices them). */
export const ouncesPer = (unit: Unit) => perUnit(1, unit);
