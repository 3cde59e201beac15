import type { Chart } from '../schemas/chart';
import type { History, HistoryGroup } from '../schemas/history';
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
  history: {
    columns: ['date', 'close', 'high', 'low'],
    rows: (b) => b.points.map((p) => [p.d, p.c ?? '', p.h ?? '', p.l ?? '']),
  } satisfies Table<History>,
  spotHistory: {
    columns: ['date', 'open', 'high', 'low', 'close', 'origin', 'final', 'n'],
    rows: (b) =>
      b.points.map((p) => [p.d, p.o ?? '', p.h ?? '', p.l ?? '', p.c ?? '', p.origin ?? '', p.final === undefined ? '' : String(p.final), p.n ?? '']),
  } satisfies Table<History>,
  intraday: { columns: ['time', 'price'], rows: (b) => b.points.map((p) => [iso(p.t), p.p]) } satisfies Table<Intraday>,
  chart: {
    columns: ['time', 'open', 'high', 'low', 'close', 'volume'],
    rows: (b) => b.points.map((p) => [iso(p.t), p.o, p.h, p.l, p.c, p.v]),
  } satisfies Table<Chart>,
};

type HistoryRow = History['points'][number];
type Column = [name: string, value: (p: HistoryRow) => string | number];
const col = (name: string, value: Column[1]): Column => [name, value];
const HISTORY_COLUMNS = {
  futures: [col('date', (p) => p.d), col('close', (p) => p.c ?? ''), col('high', (p) => p.h ?? ''), col('low', (p) => p.l ?? '')],
  monthly: [col('date', (p) => p.d), col('close', (p) => p.c ?? '')],
  // The London-time values (decisions §30): the price and when the service took the reading.
  london: [col('date', (p) => p.d), col('price', (p) => p.p ?? ''), col('time', (p) => p.t ?? '')],
  grouped: [
    col('date', (p) => p.d),
    col('open', (p) => p.o ?? ''),
    col('high', (p) => p.h ?? ''),
    col('low', (p) => p.l ?? ''),
    col('close', (p) => p.c ?? ''),
    col('days', (p) => p.days ?? ''),
  ],
};
/** Yearly bars (decisions §32): the grouped columns with the year's average and its change from the year before. */
const yearColumns = (count: 'days' | 'months'): Column[] => [
  ...HISTORY_COLUMNS.grouped.slice(0, 5),
  col('avg', (p) => p.avg ?? ''),
  col(count, (p) => p[count] ?? ''),
  col('change', (p) => p.change ?? ''),
  col('change_pct', (p) => p.change_pct ?? ''),
];
const FX_COLUMNS = [col('fx', (p) => p.fx ?? ''), col('fx_d', (p) => p.fx_d ?? '')];

const historyTables = new Map<string, Table<History>>();
/**
 * The CSV table of a history answer: its series' columns (`open` and `days` for grouped bars; yearly ones `avg`, the
 * count, `change` and `change_pct`), and `fx`, `fx_d` when converted. USD daily answers keep the tables above; each
 * table is one object, so its texts are kept per points list.
 */
export function historyTable(series: 'futures' | 'spot' | 'monthly' | 'london', group: HistoryGroup | undefined, converted: boolean): Table<History> {
  if (!converted && !group && (series === 'futures' || series === 'spot')) return series === 'spot' ? CSV_TABLES.spotHistory : CSV_TABLES.history;
  const key = `${series}|${group ?? ''}|${converted}`;
  let table = historyTables.get(key);
  if (table) return table;
  const own: Column[] =
    group === 'year'
      ? yearColumns(series === 'monthly' ? 'months' : 'days')
      : group
        ? HISTORY_COLUMNS.grouped
        : series === 'spot'
          ? CSV_TABLES.spotHistory.columns.map((name, i) => col(name, (p) => CSV_TABLES.spotHistory.rows({ points: [p] } as History)[0][i]))
          : HISTORY_COLUMNS[series === 'monthly' || series === 'london' ? series : 'futures'];
  const columns = converted ? [...own, ...FX_COLUMNS] : own;
  table = { columns: columns.map(([name]) => name), rows: (b) => b.points.map((p) => columns.map(([, value]) => value(p))) };
  historyTables.set(key, table);
  return table;
}

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
