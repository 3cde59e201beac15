import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_HEADER, parseDailyCsv } from '@/lib/prices/bars-import';
import { openEmbeddedStore } from '@/lib/store/embedded';
import type { DailyBar } from '@/lib/store';
import { ROOT } from './app';
import { fixtureText } from './fake-upstream';
import { marketClockAt } from './market';
import { ohlcRows, type OhlcRow } from './yahoo';

// Daily spot bars for tests, from real rows only: the broker's daily XAU/USD files in tests/fixtures
// (gold-daily-ohlc-usd.csv and its 2016–2019 part, provenance in tests/fixtures/SOURCES.md), read as an
// operator's import file.

/** The fixtures' rows for `dates` (2016–2019 and 2020 onward), as an import file (`date,open,high,low,close`). */
export function importFile(dates: string[]): string {
  const wanted = new Set(dates);
  const rows = ['gold-daily-ohlc-usd-2016-2019.csv', 'gold-daily-ohlc-usd.csv']
    .flatMap((file) => fixtureText(file).split(/\r?\n/).slice(1))
    .filter((line) => wanted.has(line.split(',')[0]));
  if (rows.length !== dates.length) throw new Error(`fixture has no row for some of ${dates.join(', ')}`);
  return [IMPORT_HEADER, ...rows.map((r) => r.split(',').slice(0, 5).join(','))].join('\n') + '\n';
}

/** A week after the fixture's last row: every row lies within the retention and none after the current session. */
const FIXTURE_READ_AT = Date.parse('2026-04-23T12:00:00Z');

/** The fixture's bars for `dates`, as the import reads them. */
export function fixtureBars(dates: string[]): DailyBar[] {
  return parseDailyCsv(importFile(dates), FIXTURE_READ_AT).bars;
}

/** A fresh data folder whose embedded store holds the fixture's bars for `dates` as imported gold bars. */
export async function dataDirWithBars(dates: string[], series = 'daily:xau'): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bars-'));
  const store = openEmbeddedStore(dir);
  await store.importBars(series, fixtureBars(dates));
  await store.close();
  return dir;
}

// ---- Ten years of four metals (decisions §23) ----

/** Every metal with a daily spot series, as `symbol` names it. */
export const TEN_YEAR_SYMBOLS = ['xau', 'xag', 'xpt', 'xpd'] as const;
export type TenYearSymbol = (typeof TEN_YEAR_SYMBOLS)[number];

/**
 * The broker's files behind each metal's ten years (tests/fixtures/SOURCES.md): gold and silver their own; platinum
 * and palladium reuse gold's and silver's rows, for tests of mechanics only, never of a platinum or palladium price.
 */
const TEN_YEAR_FILES: Record<TenYearSymbol, [string, string]> = {
  xau: ['gold-daily-ohlc-usd-2016-2019.csv', 'gold-daily-ohlc-usd.csv'],
  xag: ['silver-daily-ohlc-usd-2016-2019.csv', 'silver-daily-ohlc-usd.csv'],
  xpt: ['gold-daily-ohlc-usd-2016-2019.csv', 'gold-daily-ohlc-usd.csv'],
  xpd: ['silver-daily-ohlc-usd-2016-2019.csv', 'silver-daily-ohlc-usd.csv'],
};

/**
 * The calendar moment of the ten-year tests: Thursday 16 April 2026, 09:00 New York, the session of the files' last
 * row (open, so that row is the session in progress). Every row lies within the ten years kept from then.
 */
export const TEN_YEARS_AT = Date.parse('2026-04-16T09:00:00-04:00');

/** A metal's ten years as an operator's import file: the broker's header and rows, oldest first. */
export function tenYearsFile(symbol: TenYearSymbol): string {
  const [older, newer] = TEN_YEAR_FILES[symbol].map((f) => fixtureText(f).trim().split(/\r?\n/));
  return [older[0], ...older.slice(1), ...newer.slice(1)].join('\n') + '\n';
}

/** A metal's ten years read the plain way (split on commas), for computations independent of the import code. */
export function tenYearsRows(symbol: TenYearSymbol): OhlcRow[] {
  return ohlcRows(tenYearsFile(symbol));
}

// ---- The tests' own reading of a series: written apart from lib/, from docs/contract.md by plain date arithmetic ----

export type Row = ReturnType<typeof tenYearsRows>[number];
const DAY_MS = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** Two decimals, halves away from zero as written in decimal (17.365 is a half, though binary holds it a hair below). */
export const r2 = (n: number) => (Math.sign(n) * Math.round(Number((Math.abs(n) * 100).toPrecision(12)))) / 100;

/** An imported row as the spot series serves it on `today` (the session in progress when it is today's and the market is open). */
export const servedRow = (r: Row, today: string) => ({
  d: r.d,
  o: r2(r.o),
  c: r2(r.c),
  h: r2(r.h),
  l: r2(r.l),
  origin: 'imported',
  final: r.d < today,
  n: null,
});

/** The statistics of docs/contract.md ("History statistics") over rows, oldest first. */
export function expectedStats(rows: Pick<Row, 'd' | 'h' | 'l' | 'c'>[]) {
  const last = rows[rows.length - 1];
  const within = (days: number) => rows.filter((p) => dayMs(p.d) >= dayMs(last.d) - days * DAY_MS);
  const lo = (ps: typeof rows) => r2(ps.reduce((m, p) => (p.l < m ? p.l : m), Infinity));
  const hi = (ps: typeof rows) => r2(ps.reduce((m, p) => (p.h > m ? p.h : m), -Infinity));
  let prevYearClose: number | null = null;
  let yearAgoClose: number | null = null;
  for (const p of rows) {
    if (Number(p.d.slice(0, 4)) < Number(last.d.slice(0, 4))) prevYearClose = p.c;
    if (dayMs(p.d) <= dayMs(last.d) - 365 * DAY_MS) yearAgoClose = p.c;
  }
  return {
    high_52w: hi(within(365)),
    low_52w: lo(within(365)),
    ranges: {
      day: { low: r2(last.l), high: r2(last.h) },
      week: { low: lo(within(7)), high: hi(within(7)) },
      month: { low: lo(within(30)), high: hi(within(30)) },
      year: { low: lo(within(365)), high: hi(within(365)) },
    },
    return_ytd_pct: prevYearClose === null ? null : r2((last.c / prevYearClose - 1) * 100),
    return_1y_pct: yearAgoClose === null ? null : r2((last.c / yearAgoClose - 1) * 100),
  };
}

/** Every date of the broker's gold rows from `from` to `to` (both included), oldest first: the sessions it priced. */
export function fixtureDates(from: string, to: string): string[] {
  return ['gold-daily-ohlc-usd-2016-2019.csv', 'gold-daily-ohlc-usd.csv']
    .flatMap((file) => fixtureText(file).split(/\r?\n/).slice(1))
    .map((line) => line.split(',')[0])
    .filter((d) => d >= from && d <= to);
}

/**
 * `npm run import-daily` as an operator runs it (a process of its own) on a store folder, on the calendar of `at`
 * (the instance's market clock), with no KV configured: its exit status and what it printed.
 */
export function importDaily(dataDir: string, symbol: string, text: string, at: number): { status: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-import-'));
  try {
    const file = path.join(dir, 'daily.csv');
    fs.writeFileSync(file, text);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import-daily.ts', '--symbol', symbol, file], {
      cwd: ROOT,
      env: { ...process.env, ...marketClockAt(at), DATA_DIR: dataDir, KV_REST_API_URL: '', KV_REST_API_TOKEN: '' },
      encoding: 'utf8',
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
