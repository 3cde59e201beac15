import { itemById, ITEMS, ITEMS_AS_OF } from '../reference/items';
import { round, unitEntry } from '../reference/units';
import { fineShare } from '../schemas/purity';
import type { DataState } from '../schemas/common';
import type { Items, Value, ValueQuery } from '../schemas/value';
import { toDataState } from '../sources/data-state';
import { isUnavailable, type Unavailable } from '../sources/unavailable';
import { exactPriceIn, ouncesPer, priceIn } from './price-in';
import { readMetal } from './spot';

// What the metal people hold is worth (decisions §31): a weight at a purity, or a number of bullion coins, at spot, in
// any currency. It is arithmetic on spot's own reading (the served price, the FX table and the rate spot uses) through
// the one price function, so a gram valued here equals spot's gram to the digit. It is the metal's value, not a
// shop's price: the schema's descriptions, the docs and the MCP tool's words say so.

/** The value of a parsed /api/v1/value query, or unavailable when the metal has never been seen (spot's 503). */
export async function metalValue(q: ValueQuery): Promise<Value | Unavailable> {
  const item = q.item === undefined ? undefined : itemById(q.item)!;
  const metal = item?.metal ?? q.metal ?? 'gold';
  const read = await readMetal(metal, q.currency);
  if (isUnavailable(read)) return read;
  const { usdOz, rate } = read;
  const unit = q.unit;
  const { grams, label } = unitEntry(unit);

  // The fine metal, in troy ounces, and what it is worth before the one rounding.
  let fineness: number;
  let fineOz: number;
  let fineG: number;
  let weight: number;
  let exact: number;
  if (item) {
    const qty = q.qty ?? 1;
    fineness = item.fineness;
    fineOz = item.fine_oz * qty;
    fineG = item.fine_g * qty;
    weight = round((item.gross_g * qty) / grams, 6);
    exact = fineOz * exactPriceIn(usdOz, rate, 'oz');
  } else {
    fineness = fineShare(q) ?? 1;
    weight = q.weight!;
    fineOz = weight * ouncesPer(unit) * fineness;
    fineG = weight * grams * fineness;
    exact = weight * exactPriceIn(usdOz, rate, unit, fineness);
  }

  return {
    metal,
    currency: read.currency,
    weight: { value: weight, unit: label },
    fineness: round(fineness, 6),
    fine_weight: { g: round(fineG, 4), oz: round(fineOz, 6) },
    melt_value: round(exact, 2),
    ...(item ? { item, qty: q.qty ?? 1 } : {}),
    ...(q.quote === undefined
      ? {}
      : { quote: { amount: q.quote, premium: round(q.quote - exact, 2), premium_pct: round((q.quote / exact - 1) * 100, 2) } }),
    price: { value: priceIn(usdOz, rate, unit), unit: label },
    data_state: read.data_state,
    updated_at: read.updated_at,
  };
}

/**
 * The state of the list of items: bundled with the release (`snapshot`), as of the day it was checked against its
 * sources. A mint's specification does not age as a price does, so the list is `fresh`, not stale.
 */
export function itemsState(now = Date.now()): DataState {
  return toDataState({ status: 'fresh', asOf: Date.parse(`${ITEMS_AS_OF}T00:00:00Z`), source: 'snapshot' }, now);
}

/** GET /api/v1/items: the bundled list. It changes only with a release. */
export function itemList(now = Date.now()): Items {
  return { items: [...ITEMS], data_state: itemsState(now), updated_at: new Date(now).toISOString() };
}
