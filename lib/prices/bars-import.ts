import type { MetalId } from '../reference/metals';
import { getStore, type DailyBar } from '../store';
import { BAR_SERIES } from './bars';

// Operators' daily files (decisions §15): `npm run import-daily` reads one with parseDailyCsv and writes
// it with importBars. Imported bars sit beside the recorded ones and never replace them.

/** A refused import file: the first problem, with its line number (1 is the header). */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'ImportError';
  }
}

export const IMPORT_HEADER = 'date,open,high,low,close';
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^\d+(\.\d+)?$/;

/**
 * Reads an operator's daily file (decisions §15): the header `date,open,high,low,close`, then one row per
 * session, dates YYYY-MM-DD in increasing order, positive finite prices with low ≤ open, close ≤ high.
 * Any problem refuses the whole file (ImportError with the line number); nothing is read past it.
 */
export function parseDailyCsv(text: string): DailyBar[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines[0]?.trim() !== IMPORT_HEADER) throw new ImportError(1, `the header must be ${IMPORT_HEADER}`);
  if (lines.length < 2) throw new ImportError(2, 'no rows');
  const bars: DailyBar[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const cells = lines[i].split(',').map((c) => c.trim());
    if (cells.length !== 5) throw new ImportError(line, `expected 5 values (${IMPORT_HEADER}), found ${cells.length}`);
    const [d, ...raw] = cells;
    if (!DATE.test(d) || new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) !== d) {
      throw new ImportError(line, `not a date (YYYY-MM-DD): ${JSON.stringify(d)}`);
    }
    const [o, h, l, c] = raw.map(Number);
    const bad = raw.findIndex((v, k) => !NUMBER.test(v) || !([o, h, l, c][k] > 0) || !Number.isFinite([o, h, l, c][k]));
    if (bad >= 0) throw new ImportError(line, `${['open', 'high', 'low', 'close'][bad]} is not a positive number: ${JSON.stringify(raw[bad])}`);
    if (!(l <= o && l <= c && o <= h && c <= h)) throw new ImportError(line, 'prices must satisfy low ≤ open, close ≤ high');
    const before = bars[bars.length - 1];
    if (before && d <= before.d) throw new ImportError(line, `dates out of order: ${d} after ${before.d}`);
    bars.push({ d, o, h, l, c, n: 0, origin: 'imported', t0: 0, t1: 0 });
  }
  return bars;
}

/** The metal whose daily series a symbol names (`xau`, `xag`), or null. */
export function metalOfSymbol(symbol: string): MetalId | null {
  const found = Object.entries(BAR_SERIES).find(([, v]) => v.symbol === symbol.toLowerCase());
  return found ? (found[0] as MetalId) : null;
}

/** Writes checked bars to the configured store; a date holding a recorded bar keeps it. */
export async function importBars(metal: MetalId, bars: DailyBar[]): Promise<{ written: number; kept: string[] }> {
  const kept: string[] = [];
  let written = 0;
  for (const bar of bars) {
    if (await getStore().importBar(BAR_SERIES[metal].series, bar)) written++;
    else kept.push(bar.d);
  }
  return { written, kept };
}
