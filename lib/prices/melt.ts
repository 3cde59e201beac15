import { round, unitEntry, type Unit } from '../reference/units';
import { exactPriceIn, ouncesPer, priceIn } from './price-in';

// The arithmetic of what metal people hold is worth (decisions §31), apart from any reading of the price: /api/v1/value
// (value.ts) answers with it, and the price pages' script bundles it, so a value a page keeps live equals value's for the
// same price to the digit. It imports nothing that reads a feed.

/** What is valued: a weight of alloy in a unit at a fine share (0 < f ≤ 1), or a number of coins by their mint's figures. */
export type Holding = { weight: number; unit: Unit; fineness: number } | { coin: { fine_oz: number; fine_g: number }; qty: number };

/** The fine metal of a holding, unrounded: grams and troy ounces. */
export function fineOf(h: Holding): { g: number; oz: number } {
  if ('coin' in h) return { g: h.coin.fine_g * h.qty, oz: h.coin.fine_oz * h.qty };
  return { g: h.weight * unitEntry(h.unit).grams * h.fineness, oz: h.weight * ouncesPer(h.unit) * h.fineness };
}

/**
 * What a holding is worth at `usdOz` (USD per troy ounce) and `rate` (the currency per USD), unrounded: a coin by the fine
 * troy ounces its mint states, a weight through the one price function per its unit.
 */
export function exactMelt(usdOz: number, rate: number, h: Holding): number {
  return 'coin' in h ? fineOf(h).oz * exactPriceIn(usdOz, rate, 'oz') : h.weight * exactPriceIn(usdOz, rate, h.unit, h.fineness);
}

/** The metal value as value's `melt_value` answers it: rounded once, to 2 decimals. */
export const meltValue = (usdOz: number, rate: number, h: Holding): number => round(exactMelt(usdOz, rate, h), 2);

/** How a quote for the whole compares with its unrounded metal value: value's `quote`. */
export function quoteAgainst(quote: number, exact: number): { amount: number; premium: number; premium_pct: number } {
  return { amount: quote, premium: round(quote - exact, 2), premium_pct: round((quote / exact - 1) * 100, 2) };
}

/** The figures of value's answer that follow the price, each rounded as value rounds it. */
export interface MeltFigures {
  /** Grams (4 decimals) and troy ounces (6) of fine metal. */
  fine_weight: { g: number; oz: number };
  melt_value: number;
  quote?: ReturnType<typeof quoteAgainst>;
  /** Spot's own figure for the pure metal per `unit`. */
  price: number;
}

/** Value's figures for a holding at one price, with spot's price per `unit` and, given a quote, how it compares. */
export function meltFigures(usdOz: number, rate: number, h: Holding, unit: Unit, quote?: number): MeltFigures {
  const fine = fineOf(h);
  const exact = exactMelt(usdOz, rate, h);
  return {
    fine_weight: { g: round(fine.g, 4), oz: round(fine.oz, 6) },
    melt_value: round(exact, 2),
    ...(quote === undefined ? {} : { quote: quoteAgainst(quote, exact) }),
    price: priceIn(usdOz, rate, unit),
  };
}
