import snapshot from '../data/worldbank-monthly-2026-07-02.json';
import { toDataState } from '../sources/data-state';
import { Feed } from '../sources/freshness';
import { fetchMonthlyPrices, workbookTime, WorkbookRefused, WORKBOOK_METALS, type MonthlyWorkbook } from '../sources/upstream/worldbank';
import type { DataState } from '../schemas/common';

// The World Bank's monthly average prices (Commodity Price Data, "Pink Sheet", CC BY 4.0) of gold, silver and platinum
// since 1960-01 (decisions §24). The workbook is fetched at most once a day per deployment and read once per fetch; what
// was read is kept in the store, so every instance shares it and a restart still has it. Before the first fetch, or
// while the upstream fails with nothing kept, the bundled snapshot of the 2026-07-02 edition answers (lib/data/SOURCES.md).
// `as_of` is always the edition's own update date (decisions §2: the upstream's own timestamp), not the fetch time, so
// `age_seconds` says how old the edition is; `status` says whether the service reached the upstream within the day.

/** The metals the workbook has (no palladium). */
export const MONTHLY_METALS = WORKBOOK_METALS;
export type MonthlyMetal = (typeof MONTHLY_METALS)[number];

/** Whether `id` names a metal with a monthly series: palladium, or any other name, is not one. */
export function isMonthlyMetal(id: string): id is MonthlyMetal {
  return (MONTHLY_METALS as readonly string[]).includes(id);
}

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

export const MONTHLY_SOURCE = 'World Bank Commodity Price Data (The Pink Sheet), monthly average prices';
export const MONTHLY_LICENSE = 'CC BY 4.0';
export const MONTHLY_ATTRIBUTION = 'World Bank, Commodity Price Data (The Pink Sheet)';

const SNAPSHOT: MonthlyWorkbook = snapshot;
/** An edition the reader refuses is not fetched again for this long (decisions §29); a failure to reach it is retried soon. */
export const REFUSED_EDITION_HOLD_S = 6 * 3600;
const feed = new Feed<MonthlyWorkbook>({
  name: 'monthly-prices',
  ttlS: 24 * 3600,
  fetch: fetchMonthlyPrices,
  holdOffS: (err) => (err instanceof WorkbookRefused ? REFUSED_EDITION_HOLD_S : 0),
});

/** A metal's monthly series: never an error for an upstream failure (the snapshot answers, stale). */
export async function getMonthlySeries(metal: MonthlyMetal): Promise<MonthlySeries> {
  const reading = await feed.read();
  const now = Date.now();
  // A kept copy older than the bundled edition (kept before this release) gives way to it while the upstream fails.
  const kept = reading.value && (reading.status === 'fresh' || reading.value.workbookDate >= SNAPSHOT.workbookDate) ? reading.value : null;
  const book = kept ?? SNAPSHOT;
  const data_state = kept ? toDataState(reading, now) : toDataState({ status: 'stale', asOf: workbookTime(SNAPSHOT), source: 'snapshot' }, now);
  return {
    points: pointsOf(book, metal),
    source: MONTHLY_SOURCE,
    license: MONTHLY_LICENSE,
    attribution: MONTHLY_ATTRIBUTION,
    description: book.metals[metal].description,
    workbook_date: book.workbookDate,
    data_state,
  };
}

/**
 * The points of each metal of a workbook, read once per workbook held (its feed's value or the snapshot): at most three
 * lists per workbook, let go with it; the same list for every read, so what history makes of it is made once.
 */
const read = new WeakMap<MonthlyWorkbook, Map<MonthlyMetal, MonthlyPoint[]>>();
function pointsOf(book: MonthlyWorkbook, metal: MonthlyMetal): MonthlyPoint[] {
  let byMetal = read.get(book);
  if (!byMetal) read.set(book, (byMetal = new Map()));
  let points = byMetal.get(metal);
  if (!points) byMetal.set(metal, (points = readPoints(book, metal)));
  return points;
}

/** The column's priced months as points, dated the first of each month counted from the workbook's first. */
function readPoints(book: MonthlyWorkbook, metal: MonthlyMetal): MonthlyPoint[] {
  const [year, month] = book.from.split('-').map(Number);
  const points: MonthlyPoint[] = [];
  book.metals[metal].c.forEach((c, i) => {
    if (c === null) return;
    const m = month - 1 + i;
    points.push({ d: `${year + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01`, c });
  });
  return points;
}
