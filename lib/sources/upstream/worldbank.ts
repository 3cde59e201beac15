import readXlsxFile from 'read-excel-file/universal';
import { config } from '../../core/config';
import { metalById, type Metal, type MetalId } from '../../reference/metals';
import type { Sourced } from '../freshness';
import { getBytes, UpstreamError } from './fetch';

// The World Bank's Commodity Price Data ("Pink Sheet") monthly workbook, CMO-Historical-Data-Monthly.xlsx (CC BY 4.0).
// Sheet `Monthly Prices`: a header row naming each commodity, a unit row under it, then one row per month from
// `1960M01`. Sheet `Description`: each series' definition and the edition's update date. Read once per fetch into one
// array of monthly averages per metal; anything that is not that workbook (an error page, a broken zip, a missing
// column, a cut-short or absurd series) counts as the upstream down.

export const MONTHLY_API_NAME = 'World Bank';

/** The metals the workbook prices (no palladium); each column is found by the metal's English name. */
export const WORKBOOK_METALS = ['gold', 'silver', 'platinum'] as const satisfies readonly MetalId[];
export type WorkbookMetal = (typeof WORKBOOK_METALS)[number];

/** One metal's column of the workbook. */
export interface MonthlyColumn {
  /** The series' definition in the workbook's own words (its `Description` sheet), whitespace collapsed. */
  description: string;
  /** Month `i` from `MonthlyWorkbook.from`: its average price, USD per troy ounce, as the workbook has it; null where it has none. */
  c: (number | null)[];
}

/** What the service keeps of one edition of the workbook: in the store, and as the bundled snapshot. */
export interface MonthlyWorkbook {
  /** The edition's update date, YYYY-MM-DD (the workbook's "Updated on July 02, 2026"). */
  workbookDate: string;
  /** The first month, YYYY-MM. */
  from: string;
  metals: Record<WorkbookMetal, MonthlyColumn>;
}

const PRICES_SHEET = 'Monthly Prices';
const DESCRIPTION_SHEET = 'Description';
const FIRST_MONTH = '1960M01';
const MONTH_ROW = /^(\d{4})M(0[1-9]|1[0-2])$/;
/** 1960 through 2024 at least: an edition with fewer months is cut short, not the workbook. */
export const MIN_MONTHS = 65 * 12;
const UNIT = '($/troy oz)';
/** How the workbook marks a month it has no price for. */
const NO_PRICE = new Set(['…', '...', '..', '']);
const UPDATED = /^Updated (?:on|as of:?)\s+([A-Z][a-z]+)\s+(\d{1,2}),\s+(\d{4})$/;
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

type Cell = string | number | boolean | object | null;
type Rows = Cell[][];

/** A workbook the reader refuses: the edition published is wrong, and will be until the next one (not a blip to retry). */
export class WorkbookRefused extends UpstreamError {}
const bad = (reason: string) => new WorkbookRefused(MONTHLY_API_NAME, reason);
const text = (cell: Cell | undefined) => (typeof cell === 'string' ? cell.replace(/\s+/g, ' ').trim() : '');

/** The workbook's bytes read and checked; UpstreamError for anything else. */
export async function parseWorkbook(bytes: Uint8Array): Promise<MonthlyWorkbook> {
  let sheets: { sheet: string; data: Rows }[];
  try {
    // A copy that owns its whole buffer: the reader takes an ArrayBuffer.
    sheets = await readXlsxFile(new Uint8Array(bytes).buffer);
  } catch {
    throw bad('not an xlsx workbook');
  }
  const prices = sheets.find((s) => s.sheet === PRICES_SHEET)?.data;
  const description = sheets.find((s) => s.sheet === DESCRIPTION_SHEET)?.data;
  if (!prices) throw bad(`no "${PRICES_SHEET}" sheet`);
  if (!description) throw bad(`no "${DESCRIPTION_SHEET}" sheet`);

  const header = prices.findIndex((row) => WORKBOOK_METALS.some((id) => row.some((c) => text(c) === metalById(id).name)));
  if (header < 0) throw bad('no metal column');
  const columns = WORKBOOK_METALS.map((id) => {
    const name = metalById(id).name;
    const at = prices[header].flatMap((c, i) => (text(c) === name ? [i] : []));
    if (at.length !== 1) throw bad(at.length ? `two "${name}" columns` : `no "${name}" column`);
    if (text(prices[header + 1]?.[at[0]]).replace(/ /g, '') !== UNIT.replace(/ /g, '')) throw bad(`"${name}" is not in ${UNIT}`);
    return { id, index: at[0] };
  });

  const months = prices.slice(header + 2).filter((row) => MONTH_ROW.test(text(row[0])));
  if (text(months[0]?.[0]) !== FIRST_MONTH) throw bad(`the months do not start at ${FIRST_MONTH}`);
  if (months.length < MIN_MONTHS) throw bad(`only ${months.length} months`);
  months.forEach((row, i) => {
    if (i && !followsMonth(text(months[i - 1][0]), text(row[0]))) throw bad(`month ${text(row[0])} out of sequence`);
  });

  const metals = {} as Record<WorkbookMetal, MonthlyColumn>;
  for (const { id, index } of columns) {
    const [lo, hi] = (metalById(id) as Extract<Metal, { id: WorkbookMetal }>).monthlyBounds;
    const c = months.map((row) => {
      const cell = row[index];
      if (cell === null || cell === undefined || (typeof cell === 'string' && NO_PRICE.has(cell.trim()))) return null;
      if (typeof cell !== 'number' || !Number.isFinite(cell) || cell < lo || cell > hi)
        throw bad(`implausible ${id} price ${String(cell).slice(0, 40)} in ${text(row[0])}`);
      return cell;
    });
    if (c.filter((x) => x !== null).length < MIN_MONTHS) throw bad(`too few ${id} prices`);
    metals[id] = { description: definition(description, metalById(id).name), c };
  }
  return { workbookDate: updateDate(description, prices), from: '1960-01', metals };
}

/** The Description sheet's definition of a metal: the cell that starts with its name ("Gold, spot average of …"). */
function definition(rows: Rows, name: string): string {
  const starts = new RegExp(`^${name}\\b`);
  for (const row of rows) for (const cell of row) if (starts.test(text(cell))) return text(cell);
  throw bad(`no description of ${name}`);
}

/** The edition's update date, from the Description sheet (else the prices sheet's title rows), as YYYY-MM-DD. */
function updateDate(...sheets: Rows[]): string {
  for (const rows of sheets)
    for (const row of rows)
      for (const cell of row) {
        const m = UPDATED.exec(text(cell));
        const month = m ? MONTH_NAMES.indexOf(m[1]) + 1 : 0;
        if (!m || !month) continue;
        const iso = `${m[3]}-${String(month).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
        if (new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso)) return iso;
      }
  throw bad('no update date');
}

/** Whether `next` ("1960M02") is the month after `prev` ("1960M01"). */
function followsMonth(prev: string, next: string): boolean {
  const [py, pm] = prev.split('M').map(Number);
  return next === (pm === 12 ? `${py + 1}M01` : `${py}M${String(pm + 1).padStart(2, '0')}`);
}

/** The edition's date as a timestamp (ms, midnight UTC): the upstream's own date of the data, its `as_of`. */
export function workbookTime(book: Pick<MonthlyWorkbook, 'workbookDate'>): number {
  return Date.parse(`${book.workbookDate}T00:00:00Z`);
}

/** The workbook fetched and read. `asOf` is the edition's date (never after the fetch), `fetchedAt` ours. */
export async function fetchMonthlyPrices(): Promise<Sourced<MonthlyWorkbook>> {
  const bytes = await getBytes(MONTHLY_API_NAME, config.upstream.monthlyPrices());
  const fetchedAt = Date.now();
  const value = await parseWorkbook(bytes);
  return { value, asOf: Math.min(workbookTime(value), fetchedAt), fetchedAt };
}
