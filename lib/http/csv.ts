import type { Chart } from '../schemas/chart';
import type { History } from '../schemas/history';
import type { Intraday } from '../schemas/intraday';

// `format=csv` on the series endpoints: a header row and one row per point, times in ISO 8601
// UTC, so a spreadsheet can import a series with one formula. Each table names its columns
// once; the same list documents the CSV response in the OpenAPI document.

export interface Table<B> {
  columns: readonly string[];
  /** Built from `body.points` alone: the text is kept per list of points (a held series answers many requests). */
  rows: (body: B) => (string | number)[][];
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

export const CSV_TABLES = {
  history: { columns: ['date', 'close', 'high', 'low'], rows: (b) => b.points.map((p) => [p.d, p.c, p.h, p.l]) } satisfies Table<History>,
  spotHistory: {
    columns: ['date', 'open', 'high', 'low', 'close', 'origin', 'final', 'n'],
    rows: (b) => b.points.map((p) => [p.d, p.o ?? '', p.h, p.l, p.c, p.origin ?? '', p.final === undefined ? '' : String(p.final), p.n ?? '']),
  } satisfies Table<History>,
  intraday: { columns: ['time', 'price'], rows: (b) => b.points.map((p) => [iso(p.t), p.p]) } satisfies Table<Intraday>,
  chart: {
    columns: ['time', 'open', 'high', 'low', 'close', 'volume'],
    rows: (b) => b.points.map((p) => [iso(p.t), p.o, p.h, p.l, p.c, p.v]),
  } satisfies Table<Chart>,
};

/** Texts already made, per table and list of points. */
const made = new WeakMap<object, WeakMap<object, string>>();

/** The CSV text of a body: every value here is a number, a date or an ISO time, so nothing needs quoting. */
export function toCsv<B>(table: Table<B>, body: B): string {
  const points = (body as { points?: unknown }).points;
  const kept = typeof points === 'object' && points !== null ? (made.get(table) ?? made.set(table, new WeakMap()).get(table)!) : null;
  const held = kept?.get(points as object);
  if (held !== undefined) return held;
  const text = [table.columns, ...table.rows(body)].map((row) => row.join(',')).join('\r\n') + '\r\n';
  kept?.set(points as object, text);
  return text;
}
