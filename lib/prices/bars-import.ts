import { sessionNow } from '../calendar/clock';
import type { MetalId } from '../reference/metals';
import { getStore, type DailyBar, type Store } from '../store';
import { BAR_RETENTION_YEARS, BAR_SERIES, retentionStart } from './bars';

// Operators' daily files (decisions §15, §20): `npm run import-daily` reads one with importDaily, which
// refuses it whole on the first problem, then writes its bars in one store call, so a file goes in whole
// or not at all. Imported bars sit beside the recorded ones and never replace them.

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

/** The layout the docs show; the header may also name the columns in another case and order, or add others. */
export const IMPORT_HEADER = 'date,open,high,low,close';
const PRICES = ['open', 'high', 'low', 'close'] as const;
/** A day, or a timestamp whose date is taken as written (`2024-03-01 00:00:00`, `2024-03-01T00:00:00Z`). */
const DAY = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMBER = /^\d+(\.\d+)?$/;

/** What a file holds once read. */
export interface DailyFile {
  bars: DailyBar[];
  /** Lines whose four prices are all `null` (Yahoo's rows for a day without trading): no session, so no bar. */
  skipped: number[];
}

/** What an import did. */
export interface ImportResult {
  written: number;
  /** Dates holding a bar the service recorded, which the import left as it was. */
  kept: string[];
  skipped: number[];
  /** The file's first and last dates. */
  from: string;
  to: string;
}

/** Where the columns the import reads sit; names in any case, `date` (else `time`) for the day, other columns ignored. */
function columnsOf(header: string) {
  const names = header.split(',').map((c) => c.trim().toLowerCase());
  const at = (name: string) => {
    const i = names.indexOf(name);
    if (i >= 0 && names.indexOf(name, i + 1) >= 0) throw new ImportError(1, `two ${name} columns`);
    return i;
  };
  const day = names.includes('date') ? at('date') : at('time');
  const missing = [...(day < 0 ? ['date (or time)'] : []), ...PRICES.filter((p) => !names.includes(p))];
  if (missing.length) throw new ImportError(1, `no ${missing.join(', ')} column in the header (expected at least ${IMPORT_HEADER})`);
  return { count: names.length, day, prices: PRICES.map(at) };
}

/**
 * Reads an operator's daily file: a header naming the columns, then one row per session, dates in increasing
 * order from the retention's first day up to the current session at `nowMs`, positive finite prices with
 * low ≤ open, close ≤ high. Any problem refuses the whole file (ImportError with the line number).
 */
export function parseDailyCsv(text: string, nowMs = Date.now()): DailyFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const columns = columnsOf(lines[0] ?? '');
  const today = sessionNow(nowMs).date;
  const oldest = retentionStart(today);
  const bars: DailyBar[] = [];
  const skipped: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const cells = lines[i].split(',').map((c) => c.trim());
    if (cells.length !== columns.count) throw new ImportError(line, `expected ${columns.count} values, as in the header, found ${cells.length}`);
    const d = DAY.exec(cells[columns.day])?.[1];
    const t = d ? Date.parse(`${d}T00:00:00Z`) : NaN;
    if (!d || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d) {
      throw new ImportError(line, `not a date (YYYY-MM-DD): ${JSON.stringify(cells[columns.day])}`);
    }
    const raw = columns.prices.map((k) => cells[k]);
    if (raw.every((v) => v.toLowerCase() === 'null')) {
      skipped.push(line);
      continue;
    }
    if (d > today) throw new ImportError(line, `${d} is after the current session (${today})`);
    if (d < oldest) throw new ImportError(line, `${d} is older than the ${BAR_RETENTION_YEARS} years kept (from ${oldest})`);
    const before = bars[bars.length - 1];
    if (before && d <= before.d) throw new ImportError(line, `dates out of order: ${d} after ${before.d}`);
    const [o, h, l, c] = raw.map(Number);
    const bad = raw.findIndex((v, k) => !NUMBER.test(v) || !([o, h, l, c][k] > 0) || !Number.isFinite([o, h, l, c][k]));
    if (bad >= 0) throw new ImportError(line, `${PRICES[bad]} is not a positive number: ${JSON.stringify(raw[bad])}`);
    if (!(l <= o && l <= c && o <= h && c <= h)) throw new ImportError(line, 'prices must satisfy low ≤ open, close ≤ high');
    bars.push({ d, o, h, l, c, n: 0, origin: 'imported', t0: 0, t1: 0 });
  }
  if (!bars.length) throw new ImportError(lines.length + 1, 'no rows with prices');
  return { bars, skipped };
}

/** The metal whose daily series a symbol names (`xau`, `xag`), or null. */
export function metalOfSymbol(symbol: string): MetalId | null {
  const found = Object.entries(BAR_SERIES).find(([, v]) => v.symbol === symbol.toLowerCase());
  return found ? (found[0] as MetalId) : null;
}

/**
 * Reads an operator's file and writes its bars in one store call: refused (ImportError) before anything is
 * written, else written whole; a store failure leaves nothing. A date holding a recorded bar keeps it.
 */
export async function importDaily(
  metal: MetalId,
  text: string,
  { store, nowMs = Date.now() }: { store?: Store; nowMs?: number } = {},
): Promise<ImportResult> {
  const { bars, skipped } = parseDailyCsv(text, nowMs);
  // The configured store is opened only for a file that can go in.
  const { written, kept } = await (store ?? getStore()).importBars(BAR_SERIES[metal].series, bars);
  return { written, kept, skipped, from: bars[0].d, to: bars[bars.length - 1].d };
}
