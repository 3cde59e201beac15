import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '@/lib/http/conditional.mjs';
import { UNITS } from '@/lib/reference/units';
import { FakeUpstream } from '../../support/fake-upstream';
import { fxCurrenciesBody } from '../../support/fx-history';
import { marketClockAt } from '../../support/market';
import { longChartHandler, longDailyRows } from '../../support/yahoo';

// Memory no request mix can exhaust (decisions §29), in-process: the history route against the fake upstream's
// nineteen years of real gold and real rates, with an 8 MiB series budget. Every listed currency × every unit ×
// `range=max`, then distinct `from=` windows: the budget's own count never passes 8 MiB, and answers made again
// after it let their views go are the answers a cold cache gives. (RSS, noisy in a shared test run, is the
// benchmark's: `npm run bench -- series-memory`.)

const BUDGET_MB = 8;
/** Friday 17 April 2026, 09:00 New York: the session after the last real bar. */
const DAY_AFTER_LAST_BAR = Date.parse('2026-04-17T09:00:00-04:00');

let fake: FakeUpstream;
let lib: {
  route: typeof import('@/app/api/v1/history/route');
  budget: typeof import('@/lib/series/cache-budget');
};

/** An answer as compared: status, ETag and the body without its time of answer. */
async function answer(query: string) {
  const res = await lib.route.GET(new Request(`http://t/api/v1/history?${query}`));
  const text = await res.text();
  // The ETag, hashed from the answer's parts (kept or cut for this request), is the one its whole text gives.
  if (res.status === 200) expect(res.headers.get('etag'), query).toBe(etagOf(text));
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    body: text.replace(/"updated_at":"[^"]*"/g, '').replace(/"age_seconds":\d+/g, ''),
    count: (JSON.parse(text) as { count?: number }).count,
  };
}

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(longChartHandler());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-history-budget-'));
  Object.assign(process.env, fake.env(), {
    DATA_DIR: dataDir,
    CACHE_TTL_S: '3600',
    SERIES_CACHE_MB: String(BUDGET_MB),
    ...marketClockAt(DAY_AFTER_LAST_BAR),
  });
  lib = { route: await import('@/app/api/v1/history/route'), budget: await import('@/lib/series/cache-budget') };
});
afterAll(() => fake.close());

describe('one byte budget over every history cache', () => {
  it('every listed currency × every unit × range=max, then distinct from= windows: never past the budget, every answer as a cold cache gives it', async () => {
    const budget = lib.budget.seriesCache();
    // What the caches keep alive is a quarter of the budget: the rest is the collector's room (lib/series/cache-budget.ts).
    expect(budget.maxBytes).toBe(Math.floor((BUDGET_MB * 2 ** 20) / lib.budget.GC_ROOM));
    const currencies = (fxCurrenciesBody() as { iso_code: string }[]).map((c) => c.iso_code);
    expect(currencies.length).toBeGreaterThanOrEqual(6);
    // A sample asked during the sweep and again at its end, by when the budget has let most of them go.
    const sample = [
      'currency=EUR&range=max',
      'currency=INR&unit=gram&range=max',
      'currency=ISK&unit=tola&range=max',
      'currency=HRK&unit=kg&range=max',
      'currency=JPY&unit=tael&range=1y&group=week',
      'range=max',
      'currency=EUR&from=2010-03-01',
    ];
    const during = new Map<string, Awaited<ReturnType<typeof answer>>>();
    let peak = 0;
    let asked = 0;
    const ask = async (q: string) => {
      const a = await answer(q);
      expect(a.status, q).toBe(200);
      asked++;
      peak = Math.max(peak, budget.bytes);
      expect(budget.bytes, q).toBeLessThanOrEqual(budget.maxBytes);
      if (sample.includes(q)) during.set(q, a);
      return a;
    };
    for (const c of currencies) for (const u of UNITS) await ask(`currency=${c}&unit=${u}&range=max`);
    for (const q of sample) if (!during.has(q)) await ask(q);
    // Distinct windows: a from= date on each of 24 months, in two currencies.
    const days = longDailyRows().map((r) => r.d);
    for (const c of ['EUR', 'INR'])
      for (let k = 0; k < 24; k++) {
        const a = await ask(`currency=${c}&from=${days[1000 + k * 150]}`);
        expect(a.count).toBeGreaterThan(0);
      }
    expect(asked).toBeGreaterThanOrEqual(currencies.length * UNITS.length + 48);
    // The sweep filled the budget (so it had to let entries go to stay within it).
    expect(peak).toBeGreaterThan(budget.maxBytes * 0.75);

    // A view is charged what it keeps alive: the whole futures series in EUR is one list of 4,865 points as answered
    // (objects of five fields), their dates and the conversion's picks (16 bytes a point), measured at 180 bytes of heap
    // and 16 of buffers a point (lib/series/history-convert.ts), and its JSON.
    budget.clear();
    const eur = await answer('currency=EUR&range=max');
    expect(budget.bytes).toBeGreaterThan(eur.count! * 180 + eur.body.length);
    expect(budget.bytes).toBeLessThan(eur.count! * 400 + 2 * eur.body.length);

    // Asked again at the end of the sweep (held, or made again after the budget let it go), then with a cold cache.
    const end = new Map<string, Awaited<ReturnType<typeof answer>>>();
    for (const q of sample) end.set(q, await ask(q));
    budget.clear();
    expect(budget.bytes).toBe(0);
    for (const q of sample) {
      const cold = await answer(q);
      expect(cold.count, q).toBeGreaterThan(0);
      expect(end.get(q), q).toEqual(cold);
      expect(during.get(q), q).toEqual(cold);
    }
  });
});
