import { ApiError } from '../core/errors';
import type { DataState } from '../schemas/common';
import type { MetalId } from '../reference/metals';

// The World Bank's monthly average prices (Commodity Price Data, "Pink Sheet", CC BY 4.0) of gold,
// silver and platinum since 1960-01 (decisions §24). Placeholder: this file fixes the seam the
// history endpoint calls; the workbook reader and its bundled snapshot replace the body.

/** The metals the workbook has (no palladium). */
export const MONTHLY_METALS = ['gold', 'silver', 'platinum'] as const satisfies readonly MetalId[];
export type MonthlyMetal = (typeof MONTHLY_METALS)[number];

/** One month: `d` its first day (YYYY-MM-01), `c` the month's average price, USD per troy ounce, unrounded. */
export interface MonthlyPoint {
  d: string;
  c: number;
}

export interface MonthlySeries {
  /** Oldest first, one per month the workbook prices; months without a price are left out. */
  points: MonthlyPoint[];
  /** What the series is, e.g. "World Bank Commodity Price Data (The Pink Sheet), monthly average prices". */
  source: string;
  /** "CC BY 4.0". */
  license: string;
  /** The attribution the licence asks for. */
  attribution: string;
  /** What the price is, in the workbook's own words for this metal (its `Description` sheet). */
  description: string;
  /** The workbook's own update date (YYYY-MM-DD). */
  workbook_date: string;
  /**
   * fresh: the workbook fetched within the day (`source` upstream or cache); stale: the upstream has not answered
   * since (the last fetched copy from the store, or the bundled snapshot, `source` snapshot). Never unavailable:
   * the snapshot always answers.
   */
  data_state: DataState;
}

/** A metal's monthly series: never an error for an upstream failure (the snapshot answers, stale). */
export async function getMonthlySeries(metal: MonthlyMetal): Promise<MonthlySeries> {
  throw new ApiError(503, `Monthly series of ${metal} not built yet`);
}
