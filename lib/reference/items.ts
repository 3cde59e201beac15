import coins from '../data/bullion-coins.json';
import type { MetalId } from './metals';

// The bullion coins people ask about (decisions §31), each from its mint's published specification: the data and its
// provenance are lib/data/bullion-coins.json and lib/data/SOURCES.md. /api/v1/items lists them, /api/v1/value and its
// MCP tool value them by `item`, and a page can show them.

export interface Item {
  /** What `item` takes: `krugerrand`, `sovereign`, `us-90-dime`. */
  id: string;
  name: string;
  metal: MetalId;
  /** Who strikes it (for the US circulating coins, who struck them). */
  issuer: string;
  /** Weight of the coin, grams, as the mint states it. */
  gross_g: number;
  /** Fine share of the alloy, as a fraction (0.9167 is 22 karat). */
  fineness: number;
  /** Fine metal in one coin, grams. */
  fine_g: number;
  /** Fine metal in one coin, troy ounces, as the mint states it: what its metal value is computed from. */
  fine_oz: number;
  /** The mint's (or the law's) published specification. */
  source: string;
}

export const ITEMS: readonly Item[] = coins.items as Item[];

/** The ids `item` accepts, in the list's order. */
export const ITEM_IDS = ITEMS.map((i) => i.id) as [string, ...string[]];

/** When the list was last checked against its sources (YYYY-MM-DD). */
export const ITEMS_AS_OF = coins.as_of;

export function itemById(id: string): Item | undefined {
  return ITEMS.find((i) => i.id === id);
}
