import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { daysBefore } from '@/lib/calendar/dates';
import type { Reading } from '@/lib/sources/freshness';
import type { Store } from '@/lib/store';
import {
  expectedStats,
  r2,
  servedRow,
  TEN_YEAR_SYMBOLS,
  TEN_YEARS_AT,
  tenYearsFile,
  tenYearsRows,
  type Row,
  type TenYearSymbol,
} from '../../support/bars';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';

// Every metal's daily spot series at its full size (decisions §23): ten years of four metals imported into the
// embedded store, the service's calendar on Thursday 16 April 2026, 09:00 New York (the files' last session, in
// progress). Each answer is checked against this file's own reading of the broker's rows; the store is counted
// to show the series is held, not read per request; imports and folds, this process's or another's, reach the
// next answer through the version the store moves.

const METAL = { xau: 'gold', xag: 'silver', xpt: 'platinum', xpd: 'palladium' } as const;
const SERIES = (s: TenYearSymbol) => `daily:${s}`;
const TODAY = '2026-04-16';
/** Past the one-second version check. */
const PAST_CHECK_MS = 1100;

let fake: FakeUpstream;
let dataDir: string;
let lib: {
  bars: typeof import('@/lib/prices/bars');
  importing: typeof import('@/lib/prices/bars-import');
  history: typeof import('@/lib/series/history');
  store: typeof import('@/lib/store');
  embedded: typeof import('@/lib/store/embedded');
  csv: typeof import('@/lib/http/csv');
  errors: typeof import('@/lib/core/errors');
};

/** Calls of the store's bar reads, counted on the one store of the process. */
const reads = { allBars: 0, barsVersion: 0, bars: 0 };

beforeAll(async () => {
  fake = await FakeUpstream.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-spot-series-'));
  Object.assign(process.env, fake.env(), { DATA_DIR: dataDir }, marketClockAt(TEN_YEARS_AT));
  lib = {
    bars: await import('@/lib/prices/bars'),
    importing: await import('@/lib/prices/bars-import'),
    history: await import('@/lib/series/history'),
    store: await import('@/lib/store'),
    embedded: await import('@/lib/store/embedded'),
    csv: await import('@/lib/http/csv'),
    errors: await import('@/lib/core/errors'),
  };
  const store = lib.store.getStore();
  for (const name of Object.keys(reads) as (keyof typeof reads)[]) {
    const real = store[name].bind(store) as (...a: unknown[]) => Promise<unknown>;
    (store as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => (reads[name]++, real(...a));
  }
  // Palladium gets its 2020-onward rows first; its full ten years come later, as a second import.
  for (const s of ['xau', 'xag', 'xpt'] as const) await lib.importing.importDaily(METAL[s], tenYearsFile(s), { nowMs: Date.now() });
  const recent = tenYearsFile('xpd')
    .split('\n')
    .filter((line, i) => i === 0 || line >= '2020');
  await lib.importing.importDaily('palladium', recent.join('\n'), { nowMs: Date.now() });
});
afterAll(() => fake.close());

const served = (r: Row) => servedRow(r, TODAY);

const spot = (symbol: TenYearSymbol, date?: string) => lib.history.getHistoryFor({ series: 'spot', symbol, date }) as Promise<History>;
const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });
/** Another process on the same DATA_DIR (the import command, a second instance). */
const otherProcess = (): Store => lib.embedded.openEmbeddedStore(dataDir);

describe('every metal, ten years', () => {
  it('each symbol answers its own series: every point and every statistic equal an independent computation', async () => {
    for (const symbol of ['xau', 'xag', 'xpt'] as const) {
      const rows = tenYearsRows(symbol);
      expect(rows.length, symbol).toBeGreaterThan(2500);
      const body = await spot(symbol);
      History.parse(body);
      expect(body).toMatchObject({ symbol: `${symbol.toUpperCase()}USD`, interval: 'daily', count: rows.length, ...expectedStats(rows) });
      expect(body.source).toBe(
        `Daily spot bars recorded by this service from the ${symbol.toUpperCase()}/USD spot prices it served (open, high, low and close of each New York session), with any bars the operator imported`,
      );
      expect(body.points).toEqual(rows.map(served));
      expect(body.data_state).toMatchObject({ status: 'fresh', source: 'cache' });
      // The answer's JSON reuses the points' text: the same bytes JSON.stringify gives.
      const [head, bytes, tail] = lib.history.historyJsonParts(body);
      expect(head + Buffer.from(bytes).toString('utf8') + tail).toBe(JSON.stringify(body));
      // CSV in the same columns as before, every row.
      const csv = lib.csv.toCsv(lib.csv.CSV_TABLES.spotHistory, body).split('\r\n');
      expect(csv[0]).toBe('date,open,high,low,close,origin,final,n');
      expect(csv.slice(1, -1)).toEqual(rows.map((r) => `${r.d},${r2(r.o)},${r2(r.h)},${r2(r.l)},${r2(r.c)},imported,${r.d < TODAY},`));
    }
    const xpd = await spot('xpd');
    expect(xpd.symbol).toBe('XPDUSD');
    expect(xpd.points[0].d).toBe('2020-01-02');
  });

  it('date= is the last point on or before that day with the statistics unchanged; before the first one, a 404', async () => {
    for (const symbol of ['xau', 'xag'] as const) {
      const rows = tenYearsRows(symbol);
      const stats = expectedStats(rows);
      for (const row of [rows[0], rows[1234], rows[rows.length - 2], rows[rows.length - 1]]) {
        const one = await spot(symbol, row.d);
        expect(one).toMatchObject({ symbol: `${symbol.toUpperCase()}USD`, count: 1, points: [served(row)], ...stats });
      }
      // A Sunday answers the Friday before it, saying which date was asked; before the first bar there is none.
      const sunday = await spot(symbol, '2026-04-12');
      expect(sunday).toMatchObject({ count: 1, points: [served(rows.find((r) => r.d === '2026-04-10')!)], requested_date: '2026-04-12', ...stats });
      await expect(spot(symbol, daysBefore(rows[0].d, 1))).rejects.toMatchObject({ status: 404 });
    }
  });

  it('is held, not read: hundreds of answers in a second read the store once per metal, and only its version', async () => {
    for (const s of TEN_YEAR_SYMBOLS) await spot(s);
    const before = { ...reads };
    const recent = Object.fromEntries(TEN_YEAR_SYMBOLS.map((s) => [s, tenYearsRows(s).slice(-300)]));
    for (let i = 0; i < 400; i++) {
      const s = TEN_YEAR_SYMBOLS[i % 4];
      await spot(s, i % 3 ? undefined : recent[s][i % 300].d);
    }
    expect(reads.allBars - before.allBars).toBe(0);
    expect(reads.bars - before.bars).toBe(0);
    // At most one version read per metal per second (the loop may cross one second).
    expect(reads.barsVersion - before.barsVersion).toBeLessThanOrEqual(8);
  });

  it('an import by another process moves the version: within a second the next answer holds it, read whole once', async () => {
    expect((await spot('xpd')).count).toBeLessThan(2000);
    const other = otherProcess();
    try {
      const before = (await other.barsVersion(SERIES('xpd'))).epoch;
      await lib.importing.importDaily('palladium', tenYearsFile('xpd'), { store: other, nowMs: Date.now() });
      expect((await other.barsVersion(SERIES('xpd'))).epoch).toBeGreaterThan(before);
    } finally {
      await other.close();
    }
    await sleep(PAST_CHECK_MS);
    const whole = reads.allBars;
    const rows = tenYearsRows('xpd');
    const body = await spot('xpd');
    expect(body).toMatchObject({ symbol: 'XPDUSD', count: rows.length, ...expectedStats(rows) });
    expect(body.points).toEqual(rows.map(served));
    expect(reads.allBars - whole).toBe(1);
  });

  it("this process's fold shows in the very next answer; another process's within a second, each reading only the newest bars", async () => {
    // A real served gold price, folded into the session in progress: it replaces the imported bar of the day.
    const gold: number = fixture('goldapi-price-XAU.json').price;
    const t = Date.now();
    await lib.bars.recordServed('gold', fresh(gold, t));
    const tail = reads.bars;
    const whole = reads.allBars;
    const xau = await spot('xau');
    const shown = r2(gold);
    expect(xau.points.at(-1)).toEqual({ d: TODAY, o: shown, c: shown, h: shown, l: shown, origin: 'recorded', final: false, n: 1 });
    expect(xau.points.slice(0, -1)).toEqual(tenYearsRows('xau').slice(0, -1).map(served));
    // The other metals did not move.
    expect((await spot('xpt')).points.at(-1)).toEqual(served(tenYearsRows('xpt').at(-1)!));
    expect(reads.bars - tail).toBe(1);
    expect(reads.allBars - whole).toBe(0);

    // Another process folds a real silver price into silver's session.
    const silver: number = fixture('goldapi-price-XAG.json').price;
    const other = otherProcess();
    try {
      await other.foldBar(SERIES('xag'), TODAY, t, silver);
    } finally {
      await other.close();
    }
    await sleep(PAST_CHECK_MS);
    const xag = await spot('xag');
    const shownSilver = r2(silver);
    expect(xag.points.at(-1)).toEqual({
      d: TODAY,
      o: shownSilver,
      c: shownSilver,
      h: shownSilver,
      l: shownSilver,
      origin: 'recorded',
      final: false,
      n: 1,
    });
    expect(xag.count).toBe(tenYearsRows('xag').length);
    expect(reads.allBars - whole).toBe(0);
  });

  it('a store that fails after the series is held leaves it held: the answer stays, not a 503', async () => {
    const store = lib.store.getStore();
    const real = store.barsVersion;
    const held = await spot('xag');
    store.barsVersion = () => Promise.reject(new lib.store.StoreDownError('barsVersion', 'disk I/O error'));
    try {
      await sleep(PAST_CHECK_MS);
      const again = await spot('xag');
      expect(again.points).toBe(held.points);
    } finally {
      store.barsVersion = real;
    }
  });
});

describe('symbol with the futures series', () => {
  it('is gold alone: another metal is a 400 naming the one valid value and the series that has it', async () => {
    const { parseQuery } = await import('@/lib/http/query');
    const { HistoryQuery } = await import('@/lib/schemas/history');
    const q = (s: string) => parseQuery(HistoryQuery, new URL(`http://t/api/v1/history?${s}`));
    expect(q('symbol=xau')).toMatchObject({ series: 'futures', symbol: 'xau' });
    expect(q('series=spot&symbol=XPD')).toMatchObject({ series: 'spot', symbol: 'xpd' });
    for (const query of ['symbol=xag', 'series=futures&symbol=xpt']) {
      expect(() => q(query)).toThrow(lib.errors.ApiError);
      try {
        q(query);
      } catch (err) {
        expect(err).toMatchObject({ status: 400, extra: { valid: ['xau'] } });
        expect((err as Error).message).toMatch(
          /^Invalid symbol: x(ag|pt)\. Valid values: xau with series=futures, which is COMEX gold; .*series=spot$/,
        );
      }
    }
    expect(() => q('series=spot&symbol=btc')).toThrow(/Valid values: xau, xag, xpt, xpd/);
  });
});
