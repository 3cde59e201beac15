import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/universal';
import { FIXTURES } from './fake-upstream';

// The World Bank's real monthly workbook (tests/fixtures, the 2026-07-02 edition), the broken editions tests make
// from it, and its cells as the reader library gives them: the expected values, found by header text without the
// service's parser.

export const WORKBOOK_FIXTURE = 'worldbank-CMO-Historical-Data-Monthly-2026-07-02.xlsx';
export const workbookBytes = (): Uint8Array => new Uint8Array(fs.readFileSync(path.join(FIXTURES, WORKBOOK_FIXTURE)));

/** The zip part of a sheet, by the sheet's name (through the workbook's relationships). */
function sheetPart(files: Record<string, Uint8Array>, name: string): string {
  const id = new RegExp(`<sheet name="${name}"[^>]* r:id="([^"]+)"`).exec(strFromU8(files['xl/workbook.xml']))?.[1];
  const target = new RegExp(`Id="${id}"[^>]* Target="([^"]+)"`).exec(strFromU8(files['xl/_rels/workbook.xml.rels']))?.[1];
  if (!id || !target) throw new Error(`no sheet ${name}`);
  return `xl/${target}`;
}

/**
 * The real workbook with one XML part rewritten: `part` is a zip path, or `sheet:NAME` for a sheet by name.
 * Throws when the edit changes nothing, so a test never passes on an edit that missed.
 */
export function editedWorkbook(part: string, edit: (xml: string) => string): Uint8Array {
  const files = unzipSync(workbookBytes());
  const key = part.startsWith('sheet:') ? sheetPart(files, part.slice(6)) : part;
  const before = strFromU8(files[key]);
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${key} changed nothing`);
  files[key] = strToU8(after);
  return zipSync(files);
}

const sheets = new Map<string, Promise<unknown[][]>>();
/** Rows of a sheet of the real workbook, as the reader library reads them (read once per test file). */
export function rawSheet(name: string): Promise<unknown[][]> {
  if (!sheets.has(name)) sheets.set(name, readSheet(workbookBytes().buffer as ArrayBuffer, name));
  return sheets.get(name)!;
}

/** A metal's first and last month in the real `Monthly Prices` sheet, by its column's header text: [label, cell]. */
export async function rawEnds(header: string): Promise<{ first: [string, unknown]; last: [string, unknown] }> {
  const rows = await rawSheet('Monthly Prices');
  const head = rows.find((r) => r.includes(header))!;
  const col = head.indexOf(header);
  const months = rows.filter((r) => typeof r[0] === 'string' && /^\d{4}M\d{2}$/.test(r[0]));
  const at = (r: unknown[]): [string, unknown] => [r[0] as string, r[col]];
  return { first: at(months[0]), last: at(months[months.length - 1]) };
}

/** "1960M01" → "1960-01-01". */
export const monthDay = (label: string) => `${label.slice(0, 4)}-${label.slice(5)}-01`;
