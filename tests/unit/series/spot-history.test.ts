import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import { fixtureBars } from '../../support/bars';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';

// The daily spot series tells a bar in progress from a close, and a bar from many prices from one from
// few (decisions §20): `final` and `n` on every point, in JSON and CSV. The service's calendar runs on
// Friday 20 March 2026, 10:00 New York, with real rows of the broker's daily file in tests/fixtures.

const ny = (local: string) => Date.parse(local);
const FRIDAY = ny('2026-03-20T10:00:00-04:00');
// Read before the calendar clock moves: the fixture's rows as an import reads them.
const [tue, wed, thu, fri] = fixtureBars(['2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20']);
let fake: FakeUpstream;
let lib: {
  bars: typeof import('@/lib/prices/bars');
  history: typeof import('@/lib/series/history');
  store: typeof import('@/lib/store');
  csv: typeof import('@/lib/http/csv');
};

beforeAll(async () => {
  // The folds keep the closing FX table, read from the fake upstream.
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-spot-history-')) });
  lib = {
    bars: await import('@/lib/prices/bars'),
    history: await import('@/lib/series/history'),
    store: await import('@/lib/store'),
    csv: await import('@/lib/http/csv'),
  };
});
afterAll(() => fake.close());

const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });

describe('spot history points', () => {
  it('imported and closed sessions are final, the session in progress is not; n counts the prices folded, null when imported', async () => {
    await lib.store.getStore().importBars('daily:xau', [tue]);
    // Wednesday and Thursday recorded from served prices (three and one), Friday in progress (two so far).
    const observe = async (p: number, at: string) => lib.bars.recordServed('gold', fresh(p, ny(at)));
    await observe(wed.o, '2026-03-18T09:00:00-04:00');
    await observe(wed.l, '2026-03-18T12:00:00-04:00');
    await observe(wed.c, '2026-03-18T16:58:00-04:00');
    await observe(thu.c, '2026-03-19T16:00:00-04:00');
    await observe(fri.o, '2026-03-19T18:05:00-04:00');
    await observe(fri.h, '2026-03-20T09:30:00-04:00');

    // The series as served on Friday at 10:00.
    Object.assign(process.env, marketClockAt(FRIDAY));
    const h = await lib.history.getSpotHistory();
    expect(h.points.map(({ d, origin, final, n }) => ({ d, origin, final, n }))).toEqual([
      { d: '2026-03-17', origin: 'imported', final: true, n: null },
      { d: '2026-03-18', origin: 'recorded', final: true, n: 3 },
      { d: '2026-03-19', origin: 'recorded', final: true, n: 1 },
      { d: '2026-03-20', origin: 'recorded', final: false, n: 2 },
    ]);
    // The bar in progress closes at the latest price served.
    expect(h.points[3]).toMatchObject({ o: fri.o, h: fri.h, c: fri.h });

    const csv = lib.csv.toCsv(lib.csv.CSV_TABLES.spotHistory, h).split('\r\n');
    expect(csv[0]).toBe('date,open,high,low,close,origin,final,n');
    expect(csv[1]).toBe(`2026-03-17,${tue.o},${tue.h},${tue.l},${tue.c},imported,true,`);
    expect(csv[4]).toBe(`2026-03-20,${fri.o},${fri.h},${fri.o},${fri.h},recorded,false,2`);
  });
});
