import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_HEADER, parseDailyCsv } from '@/lib/prices/bars-import';
import { openEmbeddedStore } from '@/lib/store/embedded';
import type { DailyBar } from '@/lib/store';
import { fixtureText } from './fake-upstream';

// Daily spot bars for tests, from real rows only: the broker's daily XAU/USD file in tests/fixtures
// (gold-daily-ohlc-usd.csv, provenance in tests/fixtures/SOURCES.md), read as an operator's import file.

/** The fixture's rows for `dates`, as an import file (`date,open,high,low,close`). */
export function importFile(dates: string[]): string {
  const rows = fixtureText('gold-daily-ohlc-usd.csv')
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => dates.includes(line.split(',')[0]));
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
