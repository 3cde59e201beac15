import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImportError, importDaily, parseDailyCsv } from '@/lib/prices/bars-import';
import { openEmbeddedStore } from '@/lib/store/embedded';
import type { Store } from '@/lib/store';
import { fixtureText } from '../../support/fake-upstream';

// Operators' daily files (decisions §15, §20): the layouts they hold, the dates an import takes, and a
// file written whole or not at all, on the embedded store. Every expected price is read from the file
// under test by the test's own split, never written out twice.

/** Wednesday 25 November 2026, 07:00 in New York: the current session is that day's. */
const NOW = Date.parse('2026-11-25T12:00:00Z');
/** A week after the last row of the broker's file in tests/fixtures, so all of it lies within the retention. */
const AFTER_FIXTURE = Date.parse('2026-04-23T12:00:00Z');

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  vi.restoreAllMocks();
});

function embedded() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-import-'));
  const store = openEmbeddedStore(dir);
  opened.push(store);
  return { dir, store };
}
const everyBar = (store: Store) => store.bars('daily:xau', '0000-01-01', '9999-12-31');

/** The file's rows as the test reads them: the day's first 10 characters and the four named price columns. */
function rowsOf(text: string, day: string) {
  const [head, ...lines] = text.trim().split(/\r?\n/);
  const names = head.split(',').map((n) => n.toLowerCase());
  return lines
    .map((l) => l.split(','))
    .filter((cells) => cells[names.indexOf('close')] !== 'null')
    .map((cells) => {
      const [o, h, l, c] = ['open', 'high', 'low', 'close'].map((p) => Number(cells[names.indexOf(p)]));
      return { d: cells[names.indexOf(day)].slice(0, 10), o, h, l, c };
    });
}
const parsed = (text: string, nowMs: number) => parseDailyCsv(text, nowMs).bars.map(({ d, o, h, l, c }) => ({ d, o, h, l, c }));

/** The ImportError a call throws (or the promise rejects with). */
async function refusal(fn: () => unknown): Promise<ImportError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ImportError) return err;
    throw err;
  }
  throw new Error('the file was not refused');
}

describe('the layouts operators hold', () => {
  it("a broker's MT-style export loads as it is: time, the four prices, tick_volume ignored", () => {
    // The first rows of the broker's daily XAU/USD file in tests/fixtures, as exported.
    const mt = fixtureText('gold-daily-ohlc-usd.csv').split('\n').slice(0, 5).join('\n');
    expect(mt.split('\n')[0]).toBe('time,open,high,low,close,tick_volume');
    expect(parsed(mt, NOW)).toEqual(rowsOf(mt, 'time'));
    // And the whole file, unchanged.
    const whole = fixtureText('gold-daily-ohlc-usd.csv');
    const bars = parsed(whole, AFTER_FIXTURE);
    expect(bars).toEqual(rowsOf(whole, 'time'));
    expect(bars.length).toBe(whole.trim().split('\n').length - 1);
  });

  it('a Yahoo-style download loads as it is: Date, Adj Close and Volume ignored, a null row (no trading) skipped and named', () => {
    // Yahoo's CSV layout for GC=F: the 2020-01-02 row is the recorded chart body in tests/fixtures, the rest illustrate.
    const yahoo = [
      'Date,Open,High,Low,Close,Adj Close,Volume',
      '2020-01-01,null,null,null,null,null,null',
      '2020-01-02,1518.099976,1528.699951,1518.000000,1524.500000,1524.500000,214',
      '2020-01-03,1530.099976,1552.699951,1530.099976,1549.199951,1549.199951,107',
      '2020-01-06,1580.000000,1580.000000,1560.400024,1566.199951,1566.199951,416',
      '2020-01-08,1579.000000,1604.199951,1552.300049,1555.000000,1555.000000,888',
    ].join('\n');
    expect(parseDailyCsv(yahoo, NOW).skipped).toEqual([2]);
    expect(parsed(yahoo, NOW)).toEqual(rowsOf(yahoo, 'date'));
    // Stooq's download (Date,Open,High,Low,Close), the recorded file in tests/fixtures.
    const stooq = fixtureText('stooq-xauusd-d.csv');
    expect(parsed(stooq, NOW)).toEqual(rowsOf(stooq, 'date'));
  });

  it('columns in any order and case; a timestamp gives its date as written', () => {
    const text = [
      'CLOSE,Time,Low,spread,High,Open',
      '2043.55,2024-03-01 00:00:00,2038.10,25,2088.40,2054.70',
      '2082.90,2024-03-04T00:00:00Z,2079.90,30,2119.30,2083.10',
      '2126.30,2024-03-05T00:00:00+02:00,2078.60,28,2141.60,2114.60',
    ].join('\r\n');
    expect(parsed(text, NOW)).toEqual(rowsOf(text, 'time'));
    expect(parsed(text, NOW).map((b) => b.d)).toEqual(['2024-03-01', '2024-03-04', '2024-03-05']);
    // `date` wins over `time` when a file has both.
    const both = 'date,time,open,high,low,close\n2024-03-01,2024-02-29 23:00:00,2054.70,2088.40,2038.10,2043.55\n';
    expect(parsed(both, NOW).map((b) => b.d)).toEqual(['2024-03-01']);
  });

  it('a missing price column is refused on line 1 by name', async () => {
    const e = await refusal(() => parseDailyCsv('time,open,high,low,tick_volume\n2024-03-01,2054.70,2088.40,2038.10,1\n', NOW));
    expect(e.line).toBe(1);
    expect(e.message).toMatch(/^line 1: no close column/);
    expect((await refusal(() => parseDailyCsv('Day,Open,High,Low,Close\n', NOW))).message).toMatch(/^line 1: no date \(or time\) column/);
    expect((await refusal(() => parseDailyCsv('date,open,high,low\n', NOW))).message).toMatch(/^line 1: no close column/);
    expect((await refusal(() => parseDailyCsv('date,close,open,high,low,close\n', NOW))).message).toMatch(/^line 1: two close columns/);
  });

  it('every row checked, the first problem named with its line', async () => {
    const head = 'date,open,high,low,close';
    const bad: [string, RegExp][] = [
      ['2024-13-01,1,2,1,2', /^line 2: not a date \(YYYY-MM-DD\): "2024-13-01"/],
      ['2024.03.01,1,2,1,2', /^line 2: not a date/],
      ['2024-03-01,1,2,1', /^line 2: expected 5 values, as in the header, found 4/],
      ['2024-03-01,1,2,1,null', /^line 2: close is not a positive number: "null"/],
      ['2024-03-01,1,2,0,1', /^line 2: low is not a positive number: "0"/],
      ['2024-03-01,3,2,1,2', /^line 2: prices must satisfy low ≤ open, close ≤ high/],
    ];
    for (const [row, message] of bad) expect((await refusal(() => parseDailyCsv(`${head}\n${row}\n`, NOW))).message).toMatch(message);
    expect((await refusal(() => parseDailyCsv(`${head}\n2024-03-04,1,2,1,2\n2024-03-01,1,2,1,2\n`, NOW))).message).toMatch(
      /^line 3: dates out of order: 2024-03-01 after 2024-03-04/,
    );
    expect((await refusal(() => parseDailyCsv(`${head}\n`, NOW))).message).toMatch(/^line 2: no rows with prices/);
  });
});

describe('the dates an import takes', () => {
  const file = (...days: string[]) => ['date,open,high,low,close', ...days.map((d) => `${d},2054.70,2088.40,2038.10,2043.55`)].join('\n');

  it('a date after the current session (a typo of 2052) refuses the file whole, naming its line; nothing is written', async () => {
    const { store } = embedded();
    const text = file('2026-11-20', '2026-11-23', '2052-11-24', '2026-11-25');
    const e = await refusal(() => importDaily('gold', text, { store, nowMs: NOW }));
    expect(e.message).toBe('line 4: 2052-11-24 is after the current session (2026-11-25)');
    expect(await everyBar(store)).toEqual([]);
    // The next day is refused as well; the current session's own date is taken.
    expect((await refusal(() => parseDailyCsv(file('2026-11-26'), NOW))).message).toBe(
      'line 2: 2026-11-26 is after the current session (2026-11-25)',
    );
    expect(parsed(file('2026-11-25'), NOW).map((b) => b.d)).toEqual(['2026-11-25']);
  });

  it('a date older than the 10 years kept is refused; the first day kept is taken', async () => {
    const { store } = embedded();
    const e = await refusal(() => importDaily('gold', file('2016-11-24', '2016-11-25'), { store, nowMs: NOW }));
    expect(e.message).toBe('line 2: 2016-11-24 is older than the 10 years kept (from 2016-11-25)');
    expect(await everyBar(store)).toEqual([]);
    expect(parsed(file('2016-11-25'), NOW).map((b) => b.d)).toEqual(['2016-11-25']);
  });
});

describe('a file is written whole or not at all', () => {
  it('a store failure on the 500th row leaves nothing written; again, it is written whole, the recorded bar kept and counted', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { dir, store } = embedded();
    const text = fixtureText('gold-daily-ohlc-usd.csv');
    const rows = rowsOf(text, 'time');
    // The service recorded one of the file's sessions itself.
    const recorded = await store.foldBar('daily:xau', rows[1000].d, Date.parse(`${rows[1000].d}T15:00:00Z`), rows[1000].c);

    // The 500th row cannot be written (as a full disk or an I/O error would refuse it).
    const db = new DatabaseSync(path.join(dir, 'store.sqlite'));
    db.exec(`CREATE TRIGGER fail_500 BEFORE INSERT ON bars WHEN NEW.d = '${rows[499].d}' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    await expect(importDaily('gold', text, { store, nowMs: AFTER_FIXTURE })).rejects.toThrow(/disk I\/O error/);
    expect(await everyBar(store)).toEqual([recorded]);

    db.exec('DROP TRIGGER fail_500');
    db.close();
    const result = await importDaily('gold', text, { store, nowMs: AFTER_FIXTURE });
    expect(result).toEqual({ written: rows.length - 1, kept: [rows[1000].d], skipped: [], from: rows[0].d, to: rows[rows.length - 1].d });
    const bars = await everyBar(store);
    expect(bars.map((b) => b.d)).toEqual(rows.map((r) => r.d));
    expect(bars[1000]).toEqual(recorded);
    expect(bars[499]).toEqual({ ...rows[499], n: 0, origin: 'imported', t0: 0, t1: 0 });
  });

  it('importing the same file again rewrites its imported bars and keeps counting the recorded ones', async () => {
    const { store } = embedded();
    const text = fixtureText('gold-daily-ohlc-usd.csv').split('\n').slice(0, 6).join('\n');
    const rows = rowsOf(text, 'time');
    await store.foldBar('daily:xau', rows[2].d, 1, rows[2].c);
    const once = await importDaily('gold', text, { store, nowMs: NOW });
    expect(once).toMatchObject({ written: rows.length - 1, kept: [rows[2].d] });
    expect(await importDaily('gold', text, { store, nowMs: NOW })).toEqual(once);
    expect((await everyBar(store)).map((b) => b.origin)).toEqual(rows.map((_, i) => (i === 2 ? 'recorded' : 'imported')));
  });
});
