import { itemById, ITEMS, ITEMS_AS_OF } from '../reference/items';
import { round, unitEntry } from '../reference/units';
import { fineShare } from '../schemas/purity';
import type { DataState } from '../schemas/common';
import type { Items, Value, ValueQuery } from '../schemas/value';
import { toDataState } from '../sources/data-state';
import { isUnavailable, type Unavailable } from '../sources/unavailable';
import { meltFigures, type Holding } from './melt';
import { readMetal, type MetalReading } from './spot';

// What the metal people hold is worth (decisions §31): a weight at a purity, or a number of bullion coins, at spot, in
// any currency. It is arithmetic on spot's own reading (the served price, the FX table and the rate spot uses) through
// the one price function, so a gram valued here equals spot's gram to the digit. It is the metal's value, not a
// shop's price: the schema's descriptions, the docs and the MCP tool's words say so.

/** The value of a parsed /api/v1/value query, or unavailable when the metal has never been seen (spot's 503). */
export async function metalValue(q: ValueQuery): Promise<Value | Unavailable> {
  const read = await readMetal(metalOf(q), q.currency);
  return isUnavailable(read) ? read : valueAt(read, q);
}

/** The metal a query values: its coin's, else the one asked (gold by default). */
const metalOf = (q: ValueQuery) => (q.item === undefined ? undefined : itemById(q.item)!.metal) ?? q.metal ?? 'gold';

/**
 * The value of a parsed query at one reading of its metal's price (the served USD price and the rate spot uses), with
 * that reading's state: arithmetic only. A price page that has spot's answer values its figures with it, so they are
 * value's for the price the page shows.
 */
export function valueAt(read: MetalReading, q: ValueQuery): Value {
  const item = q.item === undefined ? undefined : itemById(q.item)!;
  const { usdOz, rate } = read;
  const unit = q.unit;
  const { grams, label } = unitEntry(unit);
  const qty = q.qty ?? 1;
  const fineness = item ? item.fineness : (fineShare(q) ?? 1);
  const holding: Holding = item ? { coin: item, qty } : { weight: q.weight!, unit, fineness };
  const { fine_weight, melt_value, quote, price } = meltFigures(usdOz, rate, holding, unit, q.quote);
  return {
    metal: metalOf(q),
    currency: read.currency,
    weight: { value: item ? round((item.gross_g * qty) / grams, 6) : q.weight!, unit: label },
    fineness: round(fineness, 6),
    fine_weight,
    melt_value,
    ...(item ? { item, qty } : {}),
    ...(quote ? { quote } : {}),
    price: { value: price, unit: label },
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
