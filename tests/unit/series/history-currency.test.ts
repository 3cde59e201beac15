import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { sleep, UNIT_GRAMS } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';
import { ratesOf } from '../../support/fx-history';
import { marketClockAt } from '../../support/market';
import { monthDay, rawSheet } from '../../support/workbook';
import { longChartHandler, longDailyRows, type OhlcRow } from '../../support/yahoo';

// History in any currency and unit, within any window (decisions §24), answered in-process against the fake
// upstream: nineteen years of real daily gold rows as GC=F, and real rates per USD as Frankfurter v2 rows
// (tests/fixtures/SOURCES.md). Every expected figure is this file's own computation from those rows.

const GRAMS_PER_OZ = 31.1034768;
/** Grams in each unit, by definition (decisions §17, §31). */
const GRAMS = UNIT_GRAMS;
/** A price per unit smaller than a gram has 4 decimals, as per gram; the others 2. */
const decimalsOf = (unit: keyof typeof GRAMS) => (unit === 'gram' || unit === 'grain' ? 4 : 2);
/** Half away from zero, as the service and spot round. */
const round = (v: number, dp: number) => Math.round(v * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp;

const rows = longDailyRows();
/** Friday 17 April 2026, 09:00 New York: the session after the last real bar. */
const DAY_AFTER_LAST_BAR = Date.parse('2026-04-17T09:00:00-04:00');
const FIRST = rows[0].d;

/** The rate of `date` (the last published on or before it) and the date it was published, by a plain scan. */
function rateOn(rates: Map<string, number>, date: string): { rate: number; on: string } | null {
  let best: string | null = null;
  for (const d of rates.keys()) if (d <= date && (best === null || d > best)) best = d;
  return best === null ? null : { rate: rates.get(best)!, on: best };
}

/** Whole days from `a` to `b`. */
const daysBetween = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/**
 * What a converted close must be: USD value × that date's rate ÷ grams per ounce × grams per unit; no point where the
 * last rate is more than 7 days older than it (decisions §29).
 */
function expectedClose(row: OhlcRow, rates: Map<string, number>, unit: keyof typeof GRAMS) {
  const fx = rateOn(rates, row.d);
  if (!fx || daysBetween(fx.on, row.d) > 7) return null;
  const value = unit === 'oz' ? row.c * fx.rate : ((row.c * fx.rate) / GRAMS_PER_OZ) * GRAMS[unit];
  return { d: row.d, c: round(value, decimalsOf(unit)), fx: fx.rate, ...(fx.on !== row.d ? { fx_d: fx.on } : {}) };
}

let fake: FakeUpstream;
let lib: {
  history: typeof import('@/lib/series/history');
  route: typeof import('@/app/api/v1/history/route');
  csvRoute: typeof import('@/app/api/v1/history.csv/route');
  mcp: typeof import('@/lib/mcp/server');
};
const get = (query: Record<string, string>) => lib.history.getHistoryFor(Object.fromEntries(Object.entries(query)) as never) as Promise<History>;
async function rest(query: string) {
  const res = await lib.route.GET(new Request(`http://t/api/v1/history?${query}`));
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(longChartHandler());
  // Rates published up to the end of March: the later days appear in the test of new days.
  fake.fxHistoryUntil = '2026-03-31';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-history-currency-'));
  // The market clock on the day after the fixture's last bar (2026-04-16): the series is as current as the upstream's.
  Object.assign(process.env, fake.env(), { DATA_DIR: dataDir, CACHE_TTL_S: '1', ...marketClockAt(DAY_AFTER_LAST_BAR) });
  lib = {
    history: await import('@/lib/series/history'),
    route: await import('@/app/api/v1/history/route'),
    csvRoute: await import('@/app/api/v1/history.csv/route'),
    mcp: await import('@/lib/mcp/server'),
  };
});
afterAll(() => fake.close());

describe('upstream economy', () => {
  it('a cold burst over three currencies makes one rate request per currency, and one for the currency list', async () => {
    const currencies = ['EUR', 'JPY', 'INR'];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => get({ currency: currencies[i % 3].toLowerCase(), range: 'max' })));
    for (const a of answers) expect(a.data_state.status).toBe('fresh');
    expect(fake.fxHistoryCalls).toEqual({ EUR: 1, JPY: 1, INR: 1 });
    expect(fake.calls.fxCurrencies).toBe(1);
    // The first ask is one range, from the currency's first published date to today.
    const eur = fake.log.find((l) => l.startsWith('/v2/rates') && l.includes('quotes=EUR'))!;
    expect(new URL(eur, 'http://x').searchParams.get('from')).toBe([...ratesOf('EUR').keys()][0]);
  });

  it('later answers ask only for the days after the last one kept', async () => {
    fake.fxHistoryUntil = null;
    fake.resetCalls();
    await sleep(1100);
    const body = await get({ currency: 'EUR', range: 'max' });
    expect(fake.fxHistoryCalls).toEqual({ EUR: 1 });
    const asked = new URL(
      fake.log.find((l) => l.startsWith('/v2/rates'))!,
      'http://x',
    ).searchParams;
    expect(asked.get('from')).toBe('2026-04-01');
    // The new days' points now carry their own rate.
    const last = body.points[body.points.length - 1];
    expect(last).toMatchObject(expectedClose(rows[rows.length - 1], ratesOf('EUR'), 'oz')!);
    expect(last.fx_d).toBeUndefined();
  });

  it('FX history down: USD untouched, a kept currency stale, a never-fetched one unavailable', async () => {
    fake.set('fxHistory', { mode: 'status', status: 500, text: '{"status":500,"message":"down"}' });
    await sleep(1100);
    fake.resetCalls();
    const usd = await rest('range=max');
    expect(usd.status).toBe(200);
    expect(usd.body.data_state.status).toBe('fresh');
    expect(usd.body.fx).toBeUndefined();
    expect(fake.calls.fxHistory).toBe(0);
    const eur = await rest('currency=EUR&range=max');
    expect(eur.status).toBe(200);
    expect(eur.body.data_state.status).toBe('stale');
    expect(eur.body.points.at(-1)).toMatchObject(expectedClose(rows[rows.length - 1], ratesOf('EUR'), 'oz')!);
    const aed = await rest('currency=AED');
    expect(aed.status).toBe(503);
    expect(aed.body).toMatchObject({ error: expect.stringContaining('AED'), data_state: { status: 'unavailable' } });
    expect(aed.body.points).toBeUndefined();
    fake.reset();
  });
});

describe('conversion, each point at its own date’s rate', () => {
  it('EUR per gram, INR per tola, AED per gram and JPY per ounce equal an independent computation, fx_d where the rate is older', async () => {
    await sleep(1100);
    // AED's first ask, where Frankfurter refuses ranges over five years: one refused request, then one per four years.
    fake.fxHistoryMaxYears = 5;
    fake.resetCalls();
    await get({ currency: 'AED' });
    const asked = fake.log.filter((l) => l.startsWith('/v2/rates') && l.includes('quotes=AED')).map((l) => new URL(l, 'http://x').searchParams);
    expect(asked.length).toBe(fake.fxHistoryCalls.AED);
    expect(asked.slice(1).every((q) => Date.parse(q.get('to')!) - Date.parse(q.get('from')!) < 5 * 365 * 86_400_000)).toBe(true);
    expect(asked[1].get('from')).toBe(asked[0].get('from'));
    fake.fxHistoryMaxYears = null;
    for (const [currency, unit] of [
      ['EUR', 'gram'],
      ['INR', 'tola'],
      ['AED', 'gram'],
      ['JPY', 'oz'],
    ] as const) {
      const rates = ratesOf(currency);
      const body = await get({ currency, unit, range: 'max' });
      expect(body.data_state.status, `${currency}: ${JSON.stringify(body).slice(0, 300)}`).toBe('fresh');
      History.parse(body);
      const want = rows.map((r) => expectedClose(r, rates, unit)).filter((p) => p !== null);
      expect(
        body.points.map(({ d, c, fx, fx_d }) => ({ d, c, fx, ...(fx_d ? { fx_d } : {}) })),
        `${currency}/${unit}`,
      ).toEqual(want);
      expect(body).toMatchObject({ currency, unit: unit === 'oz' ? 'troy_oz' : unit, fx: { from: [...rates.keys()][0] } });
    }
    // A gold day without a rate of its own: 1 May 2014 takes 30 April's, and says so.
    const may = (await get({ currency: 'EUR', unit: 'gram', date: '2014-05-01' })).points[0];
    expect(may).toMatchObject({ d: '2014-05-01', fx: ratesOf('EUR').get('2014-04-30'), fx_d: '2014-04-30' });
    // INR's rates start 2009-01-02, a year and a half after the series: no earlier point, and the body says from when.
    const inr = await get({ currency: 'INR', range: 'max' });
    expect(inr.points[0].d).toBe(rows.find((r) => r.d >= '2009-01-02')!.d);
    expect(inr.fx!.from).toBe('2009-01-02');
    expect(FIRST < '2009-01-02').toBe(true);
  });

  it('the units of the world’s markets: every point is its grams of the USD close at its date’s rate, in JSON and CSV', async () => {
    for (const [currency, unit] of [
      ['JPY', 'chi'],
      ['JPY', 'luong'],
      ['INR', 'don'],
      ['INR', 'pavan'],
      ['JPY', 'dwt'],
      ['JPY', 'grain'],
    ] as const) {
      const rates = ratesOf(currency);
      const body = await get({ currency, unit, from: '2016-01-01', to: '2016-12-31' });
      expect(body.data_state.status, `${currency}/${unit}`).toBe('fresh');
      expect(body).toMatchObject({ currency, unit });
      const want = rows
        .filter((r) => r.d >= '2016-01-01' && r.d <= '2016-12-31')
        .map((r) => expectedClose(r, rates, unit))
        .filter((p) => p !== null);
      expect(want.length).toBeGreaterThan(200);
      expect(
        body.points.map(({ d, c, fx, fx_d }) => ({ d, c, fx, ...(fx_d ? { fx_d } : {}) })),
        `${currency}/${unit}`,
      ).toEqual(want);
      const res = await lib.csvRoute.GET(new Request(`http://t/api/v1/history.csv?currency=${currency}&unit=${unit}&from=2016-04-25&to=2016-05-06`));
      const closes = (await res.text())
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(','));
      const inWindow = want.filter((p) => p.d >= '2016-04-25' && p.d <= '2016-05-06');
      expect(inWindow.length).toBeGreaterThan(5);
      expect(
        closes.map(([d, c]) => [d, Number(c)]),
        `${currency}/${unit} CSV`,
      ).toEqual(inWindow.map((p) => [p.d, p.c]));
    }
  });

  it('a currency that ended (HRK, last rate 2022-12-30): no point after it, and the body says until when', async () => {
    const hrk = ratesOf('HRK');
    const body = await get({ currency: 'HRK', range: 'max' });
    History.parse(body);
    expect(body.fx).toMatchObject({ from: '2020-01-02', until: '2022-12-30' });
    // 2 and 3 January 2023 are within 7 days of the last rate: left out because the kuna had ended, not for its age.
    expect(body.points.at(-1)!.d).toBe(rows.filter((r) => r.d <= '2022-12-30').at(-1)!.d);
    expect(rows.some((r) => r.d > '2022-12-30' && r.d <= '2023-01-06')).toBe(true);
    for (const p of body.points) expect(p.fx, p.d).toBe(hrk.get(p.fx_d ?? p.d));
    // A window after the end answers no points, not a 500 and not the last kuna price.
    const after = await rest('currency=HRK&from=2023-06-01&to=2023-12-31');
    expect(after.status).toBe(200);
    expect(after.body.points).toEqual([]);
    expect(after.body.fx.until).toBe('2022-12-30');
    expect((await get({ currency: 'EUR', range: 'max' })).fx!.until).toBeUndefined();
  });

  it('a gap of years in a currency’s rates (ISK, none from 2008-12-09 to 2018-02-01): its points left out and counted', async () => {
    const isk = ratesOf('ISK');
    const body = await get({ currency: 'ISK', from: '2008-11-01', to: '2018-03-31' });
    const want = rows.filter((r) => r.d >= '2008-11-01' && r.d <= '2018-03-31');
    const kept = want.map((r) => expectedClose(r, isk, 'oz')).filter((p) => p !== null);
    expect(body.points.map(({ d, c, fx, fx_d }) => ({ d, c, fx, ...(fx_d ? { fx_d } : {}) }))).toEqual(kept);
    // Converted up to 7 days after the last rate before the gap, and again from the first rate after it.
    expect(body.points.filter((p) => p.d > '2008-12-09' && p.d < '2018-02-01').every((p) => p.d <= '2008-12-16')).toBe(true);
    expect(body.points.find((p) => p.d >= '2018-02-01')!.d).toBe('2018-02-01');
    expect(body.fx!.left_out).toBe(want.length - kept.length);
    expect(want.length - kept.length).toBeGreaterThan(2000);
    // A window with no gap says nothing of one.
    expect((await get({ currency: 'ISK', from: '2019-01-01', to: '2019-12-31' })).fx!.left_out).toBeUndefined();
  });

  it('a currency without a rate history is refused with the list of those with one; USD in grams needs no rate', async () => {
    const chf = await rest('currency=chf');
    expect(chf.status).toBe(400);
    expect(chf.body).toMatchObject({
      error: expect.stringContaining('chf'),
      valid: ['AED', 'EUR', 'HRK', 'INR', 'ISK', 'JPY', 'USD'],
      data_state: expect.any(Object),
    });
    const gram = await get({ unit: 'gram', range: 'max' });
    expect(gram.fx).toBeUndefined();
    expect(gram).toMatchObject({ currency: 'USD', unit: 'gram' });
    expect(gram.points.at(-1)!.c).toBe(round(rows[rows.length - 1].c / GRAMS_PER_OZ, 4));
  });

  it('a futures series whose last bar is months behind the calendar is stale, as of that bar, however recently fetched', async () => {
    const lastBar = rows[rows.length - 1].d;
    expect((await get({})).data_state.status).toBe('fresh');
    // Seven months on (the real date of this fixture's use): the same fetch, no newer bar.
    Object.assign(process.env, marketClockAt(Date.parse('2026-11-18T09:00:00-05:00')));
    try {
      for (const q of [{}, { currency: 'EUR' }] as Record<string, string>[]) {
        const body = await get(q);
        expect(body.data_state.status, JSON.stringify(q)).toBe('stale');
        expect(body.data_state.as_of!.slice(0, 10)).toBe(lastBar);
      }
      // Four days on (a long weekend) it is still current.
      Object.assign(process.env, marketClockAt(Date.parse('2026-04-20T09:00:00-04:00')));
      expect((await get({})).data_state.status).toBe('fresh');
    } finally {
      Object.assign(process.env, marketClockAt(DAY_AFTER_LAST_BAR));
    }
  });

  it('USD per troy ounce answers as before: no currency, unit or fx fields, the default window 5 years', async () => {
    const body = await get({});
    expect(Object.keys(body)).toEqual([
      'symbol',
      'series',
      'interval',
      'source',
      'points',
      'count',
      'high_52w',
      'low_52w',
      'ranges',
      'return_ytd_pct',
      'return_1y_pct',
      'period',
      'data_state',
      'updated_at',
    ]);
    expect(body.points[0].d).toBe('2021-04-16');
    expect(Object.keys(body.points[0])).toEqual(['d', 'c', 'h', 'l']);
    // The whole reach, from 2007 in this fixture (GC=F's own starts 2000-08-30).
    expect((await get({ range: 'max' })).points[0].d).toBe(FIRST);
  });
});

describe('windows', () => {
  it('from/to, and group=week|month against this file’s own aggregation of the daily points', async () => {
    const inWindow = rows.filter((r) => r.d >= '2025-01-01' && r.d <= '2025-12-31');
    const daily = await get({ from: '2025-01-01', to: '2025-12-31' });
    expect(daily.points.map((p) => p.d)).toEqual(inWindow.map((r) => r.d));
    for (const group of ['week', 'month'] as const) {
      const keyOf = (d: string) => {
        if (group === 'month') return d.slice(0, 7);
        const t = Date.parse(`${d}T00:00:00Z`);
        return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
      };
      const buckets = new Map<string, OhlcRow[]>();
      for (const r of inWindow) buckets.set(keyOf(r.d), [...(buckets.get(keyOf(r.d)) ?? []), r]);
      const want = [...buckets.values()].map((b) => ({
        d: b[0].d,
        o: round(b[0].o, 2),
        c: round(b[b.length - 1].c, 2),
        h: round(Math.max(...b.map((r) => r.h)), 2),
        l: round(Math.min(...b.map((r) => r.l)), 2),
        days: b.length,
      }));
      const body = await get({ from: '2025-01-01', to: '2025-12-31', group });
      expect(body.interval).toBe(group === 'week' ? 'weekly' : 'monthly');
      expect(body.points).toEqual(want);
    }
  });

  it('to alone counts the default 5 years back from it; range with to counts back from to', async () => {
    const back = (to: string, days: number) => new Date(Date.parse(`${to}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    // Five years (1826 days) before 2015-06-30 is 2010-06-30: the points between, and none after `to`.
    const five = await get({ to: '2015-06-30' });
    expect(back('2015-06-30', 1826)).toBe('2010-06-30');
    expect(five.points.map((p) => p.d)).toEqual(rows.filter((r) => r.d >= '2010-06-30' && r.d <= '2015-06-30').map((r) => r.d));
    // Before the fix, a window ending 2010-12-31 started five years before the latest point (2021) and held nothing.
    const old = await rest('to=2010-12-31');
    expect(old.status).toBe(200);
    expect(old.body.points.length).toBeGreaterThan(700);
    expect(old.body.points.at(-1).d).toBe(rows.filter((r) => r.d <= '2010-12-31').at(-1)!.d);
    for (const [range, days] of [
      ['1y', 365],
      ['3m', 91],
    ] as const) {
      const body = await get({ range, to: '2012-03-15' });
      const from = back('2012-03-15', days);
      expect(
        body.points.map((p) => p.d),
        range,
      ).toEqual(rows.filter((r) => r.d >= from && r.d <= '2012-03-15').map((r) => r.d));
    }
    const ytd = await get({ range: 'ytd', to: '2012-03-15', currency: 'EUR' });
    expect(ytd.points[0].d).toBe(rows.find((r) => r.d >= '2012-01-01')!.d);
    expect(ytd.points.at(-1)!.d).toBe(rows.filter((r) => r.d <= '2012-03-15').at(-1)!.d);
  });

  it('date= on a Sunday answers the Friday before, with requested_date; before the first point, 404', async () => {
    const body = await get({ date: '2026-04-12' });
    expect(body.points).toEqual([
      { d: '2026-04-10', c: round(rows.find((r) => r.d === '2026-04-10')!.c, 2), h: expect.any(Number), l: expect.any(Number) },
    ]);
    expect(body.requested_date).toBe('2026-04-12');
    const before = await rest('date=2007-06-21');
    expect(before.status).toBe(404);
    expect(before.body.data_state).toBeDefined();
  });

  it('period adds up over the points returned, converted or not; the statistics stay over the whole series', async () => {
    const whole = await get({ range: 'max' });
    for (const q of [
      { from: '2010-01-01', to: '2010-12-31' },
      { currency: 'EUR', unit: 'gram', range: '1y' },
      { range: 'ytd', group: 'week' },
    ] as Record<string, string>[]) {
      const body = await get(q);
      const { period, points } = body;
      const dp = q.unit === 'gram' ? 4 : 2;
      expect(period.from).toBe(points[0].d);
      expect(period.to).toBe(points.at(-1)!.d);
      expect(period.first).toBe(points[0].c);
      expect(period.last).toBe(points.at(-1)!.c);
      expect(period.change).toBe(round(period.last! - period.first!, dp));
      expect(period.change_pct).toBe(round((period.last! / period.first! - 1) * 100, 2));
      expect(period.high).toBe(Math.max(...points.map((p) => p.h!)));
      expect(period.low).toBe(Math.min(...points.map((p) => p.l!)));
      if (!q.currency) expect(body.high_52w).toBe(whole.high_52w);
    }
  });

  it('the performance table’s windows (1w to max): each in any currency and unit, period.change_pct from its points', async () => {
    const last = rows[rows.length - 1].d;
    const back = (days: number) => new Date(Date.parse(`${last}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    // The dates the series has in EUR: those with a rate published on or within 7 days before them (one pass over both lists).
    const rateDates = [...ratesOf('EUR').keys()].sort();
    const converted: { d: string }[] = [];
    let k = -1;
    for (const r of rows) {
      while (k + 1 < rateDates.length && rateDates[k + 1] <= r.d) k++;
      if (k >= 0 && daysBetween(rateDates[k], r.d) <= 7) converted.push({ d: r.d });
    }
    for (const [range, from] of [
      ['1w', back(7)],
      ['1m', back(30)],
      ['6m', back(182)],
      ['ytd', `${last.slice(0, 4)}-01-01`],
      ['1y', back(365)],
      ['5y', back(1826)],
      ['10y', back(3652)],
      ['max', FIRST],
    ] as const) {
      const body = await get({ range, currency: 'EUR', unit: 'gram' });
      const want = converted.filter((p) => p.d >= from);
      expect(
        body.points.map((p) => p.d),
        range,
      ).toEqual(want.map((p) => p.d));
      const [first, end] = [body.points[0].c!, body.points.at(-1)!.c!];
      expect(body.period.change_pct, range).toBe(round((end / first - 1) * 100, 2));
    }
  });

  it('a reversed window, a future date, range with from: 400 {error, valid}', async () => {
    for (const q of ['from=2020-02-01&to=2020-01-01', 'to=2999-01-01', 'date=2999-01-01', 'range=1y&from=2020-01-01', 'group=day', 'range=7y']) {
      const { status, body } = await rest(q);
      expect(status, q).toBe(400);
      expect(body, q).toMatchObject({ error: expect.any(String), valid: expect.any(Array), data_state: expect.any(Object) });
    }
    expect((await rest('group=decade')).body).toMatchObject({ error: expect.stringContaining('decade'), valid: ['week', 'month', 'year'] });
    expect((await rest('range=2w')).body.valid).toEqual(['1w', '1m', '3m', '6m', 'ytd', '1y', '2y', '5y', '10y', 'max']);
  });
});

let cells: Promise<Map<string, number>> | null = null;
/** The real workbook's Gold cell of every month, read by header text with the reader library alone (once per file). */
function goldCells(): Promise<Map<string, number>> {
  cells ??= rawSheet('Monthly Prices').then((sheet) => {
    const col = sheet.find((r) => r.includes('Gold'))!.indexOf('Gold');
    return new Map(
      sheet.filter((r) => typeof r[0] === 'string' && /^\d{4}M\d{2}$/.test(r[0])).map((r) => [monthDay(r[0] as string), r[col] as number]),
    );
  });
  return cells;
}

/** One year bar as this file computes it from the ungrouped points of the same request, and the unrounded closes behind them. */
interface YearOf {
  points: History['points'];
  /** The whole series in the same currency and unit (ungrouped): where the year before's last close is. */
  whole: History['points'];
  /** A point's unrounded close (and open) in the answer's currency and unit, from the fixture's own numbers. */
  raw: (p: History['points'][number]) => { o: number; c: number };
  dp: number;
  count: 'days' | 'months';
}
function expectedYears({ points, whole, raw, dp, count }: YearOf) {
  const years = new Map<string, History['points']>();
  for (const p of points) years.set(p.d.slice(0, 4), [...(years.get(p.d.slice(0, 4)) ?? []), p]);
  return [...years].map(([year, ps]) => {
    const first = ps[0];
    const last = ps[ps.length - 1];
    const before = whole.filter((p) => p.d.startsWith(`${Number(year) - 1}-`)).at(-1);
    const rateDate = last.fx_d ?? last.d;
    return {
      d: first.d,
      o: round(raw(first).o, dp),
      c: last.c,
      h: Math.max(...ps.map((p) => p.h ?? p.c!)),
      l: Math.min(...ps.map((p) => p.l ?? p.c!)),
      avg: round(ps.reduce((sum, p) => sum + raw(p).c, 0) / ps.length, dp),
      [count]: ps.length,
      change: before ? round(last.c! - before.c!, dp) : null,
      change_pct: before ? round((last.c! / before.c! - 1) * 100, 2) : null,
      ...(last.fx !== undefined ? { fx: last.fx, ...(rateDate !== first.d ? { fx_d: rateDate } : {}) } : {}),
    };
  });
}

describe('years (group=year)', () => {
  const rowOf = new Map(rows.map((r) => [r.d, r]));
  /** A futures point's unrounded open and close: the fixture's row × the rate the point carries, per unit. */
  const futuresRaw = (unit: 'oz' | 'gram') => (p: History['points'][number]) => {
    const r = rowOf.get(p.d)!;
    const f = (v: number) => (unit === 'gram' ? (v * (p.fx ?? 1)) / GRAMS_PER_OZ : v * (p.fx ?? 1));
    return { o: f(r.o), c: f(r.c) };
  };

  it('futures in USD per ounce and EUR per gram: each year from the ungrouped points, its change from the close of the year before', async () => {
    for (const q of [
      { range: 'max' },
      { currency: 'EUR', unit: 'gram', from: '2012-05-15', to: '2015-03-31' },
      { currency: 'EUR', range: 'max' },
      // ISK has no rates from 2008-12-09 to 2018-02-01: no years between, and 2018 has no year before it (2008 has 2007's, before the window).
      { currency: 'ISK', from: '2008-01-01', to: '2019-12-31' },
    ] as Record<string, string>[]) {
      const unit = (q.unit ?? 'oz') as 'oz' | 'gram';
      const body = await get({ ...q, group: 'year' });
      History.parse(body);
      const points = (await get(q)).points;
      const whole = (await get({ currency: q.currency ?? 'USD', unit, range: 'max' })).points;
      expect(body, JSON.stringify(q)).toMatchObject({ interval: 'yearly', bars_of: 'daily', series: 'futures', count: body.points.length });
      expect(body.points, JSON.stringify(q)).toEqual(
        expectedYears({ points, whole, raw: futuresRaw(unit), dp: unit === 'gram' ? 4 : 2, count: 'days' }),
      );
    }
    // The first year of the series has no year before; a window starting in May takes 2011's last close from before it.
    const max = await get({ range: 'max', group: 'year' });
    expect(max.points[0]).toMatchObject({ d: FIRST, change: null, change_pct: null });
    const window = await get({ currency: 'EUR', unit: 'gram', from: '2012-05-15', to: '2015-03-31', group: 'year' });
    expect(window.points.map((p) => p.d.slice(0, 4))).toEqual(['2012', '2013', '2014', '2015']);
    expect(window.points[0].change).not.toBeNull();
    const isk = await get({ currency: 'ISK', from: '2008-01-01', to: '2019-12-31', group: 'year' });
    expect(isk.points.map((p) => [p.d.slice(0, 4), p.change === null])).toEqual([
      ['2008', false],
      ['2018', true],
      ['2019', false],
    ]);
  });

  it('CSV: the same bars, date,open,high,low,close,avg,days,change,change_pct (and fx,fx_d converted)', async () => {
    for (const [query, header] of [
      ['range=max&group=year', 'date,open,high,low,close,avg,days,change,change_pct'],
      ['currency=EUR&unit=gram&from=2012-05-15&to=2015-03-31&group=year', 'date,open,high,low,close,avg,days,change,change_pct,fx,fx_d'],
    ] as const) {
      const res = await lib.csvRoute.GET(new Request(`http://t/api/v1/history.csv?${query}`));
      const lines = (await res.text()).trim().split('\r\n');
      expect(lines[0]).toBe(header);
      const { body } = await rest(query);
      const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
      expect(lines.slice(1)).toEqual(
        body.points.map((p: Record<string, unknown>) =>
          header
            .split(',')
            .map((h) => cell(p[h === 'date' ? 'd' : h === 'open' ? 'o' : h === 'close' ? 'c' : h === 'high' ? 'h' : h === 'low' ? 'l' : h]))
            .join(','),
        ),
      );
    }
  });

  it('the monthly series in USD and EUR: years of monthly averages, counted in months and labelled so; the daily and monthly years in one currency and unit', async () => {
    const gold = await goldCells();
    for (const currency of ['USD', 'EUR']) {
      const q = { series: 'monthly', currency, range: 'max' };
      const { status, body } = await rest(new URLSearchParams({ ...q, group: 'year' }).toString());
      expect(status).toBe(200);
      History.parse(body);
      expect(body).toMatchObject({ series: 'monthly', interval: 'yearly', bars_of: 'monthly_averages' });
      const points = (await get(q)).points;
      const raw = (p: History['points'][number]) => ({ o: gold.get(p.d)! * (p.fx ?? 1), c: gold.get(p.d)! * (p.fx ?? 1) });
      expect(body.points, currency).toEqual(expectedYears({ points, whole: points, raw, dp: 2, count: 'months' }));
      // The workbook starts in 1960 (USD), EUR's rates in 2007: neither first year has one before it.
      expect(body.points[0]).toMatchObject({ d: points[0].d, change: null });
      expect(body.points.find((p: { d: string }) => p.d.startsWith('1980-'))?.months ?? 12).toBe(12);
      const csv = await lib.csvRoute.GET(new Request(`http://t/api/v1/history.csv?${new URLSearchParams({ ...q, group: 'year' })}`));
      expect((await csv.text()).split('\r\n')[0]).toBe(
        `date,open,high,low,close,avg,months,change,change_pct${currency === 'EUR' ? ',fx,fx_d' : ''}`,
      );
    }
    // A table of years in one currency and unit: the daily futures' years, and the monthly averages' before them.
    const daily = await rest('currency=EUR&unit=gram&range=max&group=year');
    const monthly = await rest('series=monthly&currency=EUR&unit=gram&to=2007-12-31&group=year');
    for (const r of [daily, monthly]) expect(r.body).toMatchObject({ currency: 'EUR', unit: 'gram', interval: 'yearly' });
    expect(monthly.body.bars_of).toBe('monthly_averages');
    expect(monthly.body.points.at(-1).d.slice(0, 4)).toBe(daily.body.points[0].d.slice(0, 4));
    // group=month on the monthly series changes nothing, as before.
    expect((await rest('series=monthly&group=month')).body.points).toEqual((await rest('series=monthly')).body.points);
  });

  it('get_gold_history takes group=year and says each year, and that the monthly series’ years are made of monthly averages', async () => {
    const server = lib.mcp.createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    type Result = { structuredContent: History; content: { text: string }[] };
    try {
      const args = { currency: 'INR', from: '2015-01-01', to: '2019-12-31', group: 'year' };
      const result = (await client.callTool({ name: 'get_gold_history', arguments: args })) as Result;
      const { body } = await rest(new URLSearchParams(args).toString());
      expect(result.structuredContent.points).toEqual(body.points);
      const text = result.content[0].text;
      expect(text).toContain('5 years');
      const y2016 = body.points.find((p: { d: string }) => p.d.startsWith('2016'));
      expect(text).toContain(
        `2016 ${y2016.c.toLocaleString('en-US', { maximumFractionDigits: 2 })}, avg ${y2016.avg.toLocaleString('en-US', { maximumFractionDigits: 2 })}`,
      );
      const monthly = (await client.callTool({
        name: 'get_gold_history',
        arguments: { series: 'monthly', group: 'year', to: '1999-12-31' },
      })) as Result;
      expect(monthly.structuredContent.bars_of).toBe('monthly_averages');
      expect(monthly.content[0].text).toContain('each from monthly averages');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('the monthly series', () => {
  it('in EUR at the route, from the real workbook: each month its Gold cell × the average of that month’s daily rates', async () => {
    // The fake serves the real 2026-07-02 workbook; its cells read here by header text with the reader library alone.
    const gold = await goldCells();
    const rates = ratesOf('EUR');
    const { status, body } = await rest('series=monthly&currency=EUR&range=max');
    expect(status).toBe(200);
    expect(body).toMatchObject({ series: 'monthly', interval: 'monthly', license: 'CC BY 4.0', currency: 'EUR' });
    expect(body.description).toContain('London afternoon fixing');
    // Every month with EUR rates of its own, from the first (June 2007) to the last (April 2026): none later, none invented.
    const months = [...new Set([...rates.keys()].map((d) => `${d.slice(0, 7)}-01`))].filter((m) => gold.has(m));
    expect(body.points.map((p: { d: string }) => p.d)).toEqual(months);
    for (const p of body.points) {
      const month = [...rates].filter(([d]) => d.startsWith(p.d.slice(0, 7))).map(([, r]) => r);
      const avg = month.reduce((s, r) => s + r, 0) / month.length;
      expect(p).toEqual({ d: p.d, c: round(gold.get(p.d)! * avg, 2), fx: avg });
    }
    // The workbook goes on to June 2026; the months after the rates' last are left out and counted.
    expect(gold.has('2026-06-01')).toBe(true);
    expect(body.fx.left_out).toBe(2);
  });

  it('palladium and group=week refused naming the valid values', async () => {
    expect((await rest('series=monthly&symbol=xpd')).body).toMatchObject({ valid: ['xau', 'xag', 'xpt'] });
    expect((await rest('series=monthly&group=week')).body).toMatchObject({ valid: ['month', 'year'] });
  });
});

describe('CSV and MCP', () => {
  it('CSV takes the same parameters and adds fx and fx_d when converted', async () => {
    const res = await lib.csvRoute.GET(new Request('http://t/api/v1/history.csv?currency=EUR&unit=gram&from=2014-04-28&to=2014-05-02'));
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('date,close,high,low,fx,fx_d');
    const json = await get({ currency: 'EUR', unit: 'gram', from: '2014-04-28', to: '2014-05-02' });
    expect(lines.slice(1)).toEqual(json.points.map((p) => [p.d, p.c, p.h, p.l, p.fx, p.fx_d ?? ''].join(',')));
    expect(lines.some((l) => l.endsWith(',2014-04-30'))).toBe(true);
    expect(res.headers.get('X-Series')).toBe('futures');
  });

  it('every answer names its series, JSON in `series`, CSV in X-Series', async () => {
    for (const [query, series] of [
      ['range=1y', 'futures'],
      ['group=week&range=1y', 'futures'],
      ['series=spot', 'spot'],
      ['series=monthly&currency=EUR', 'monthly'],
      ['series=monthly&symbol=xag&group=month', 'monthly'],
    ] as const) {
      const { status, body } = await rest(query);
      expect(status, query).toBe(200);
      expect(body.series, query).toBe(series);
      const csv = await lib.csvRoute.GET(new Request(`http://t/api/v1/history.csv?${query}`));
      expect(csv.headers.get('X-Series'), query).toBe(series);
      // Readable by a page on another origin, as X-Data-State is.
      expect(csv.headers.get('Access-Control-Expose-Headers'), query).toContain('X-Series');
    }
  });

  it('get_gold_history gives the numbers REST gives, and its text names series, source, currency, unit and FX date', async () => {
    const server = lib.mcp.createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const args = { currency: 'eur', unit: 'gram', date: '2014-05-01' };
      const result = (await client.callTool({ name: 'get_gold_history', arguments: args })) as {
        structuredContent: History;
        content: { text: string }[];
      };
      const { body } = await rest('currency=eur&unit=gram&date=2014-05-01');
      expect(result.structuredContent.points).toEqual(body.points);
      expect(result.structuredContent.period).toEqual(body.period);
      const text = result.content[0].text;
      for (const words of ['COMEX futures GC=F', 'EUR per gram', '2014-04-30', 'Source: COMEX gold futures']) expect(text).toContain(words);
      const window = (await client.callTool({
        name: 'get_gold_history',
        arguments: { series: 'futures', currency: 'JPY', from: '2020-01-01', to: '2020-03-31', group: 'month' },
      })) as {
        structuredContent: History;
      };
      expect(window.structuredContent.points).toEqual((await rest('currency=JPY&from=2020-01-01&to=2020-03-31&group=month')).body.points);
      // An ended currency and a gap in a currency's rates are said in the text as in the body.
      const said = async (args: Record<string, string>) =>
        ((await client.callTool({ name: 'get_gold_history', arguments: args })) as { content: { text: string }[] }).content[0].text;
      expect(await said({ currency: 'HRK', range: 'max' })).toContain('until 2022-12-30 (the currency ended');
      const isk = (await rest('currency=ISK&from=2010-01-01&to=2018-12-31')).body;
      expect(await said({ currency: 'ISK', from: '2010-01-01', to: '2018-12-31' })).toContain(`; ${isk.fx.left_out} points left out`);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('get_gold_history fits an agent: range=max is grouped under 100,000 characters, saying so and where every point is; a year is whole', async () => {
    const server = lib.mcp.createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    type Answer = { structuredContent: History; content: { text: string }[] };
    try {
      for (const args of [{ range: 'max' }, { range: 'max', currency: 'EUR', unit: 'gram' }] as Record<string, string>[]) {
        const result = (await client.callTool({ name: 'get_gold_history', arguments: args })) as Answer;
        // The whole result as the client receives it: text, JSON and structuredContent.
        expect(JSON.stringify(result).length, JSON.stringify(args)).toBeLessThan(100_000);
        const got = result.structuredContent;
        expect(['weekly', 'monthly'], JSON.stringify(args)).toContain(got.interval);
        const group = got.interval === 'weekly' ? 'week' : 'month';
        // The same bars REST gives for that grouping; the text says why and where the daily points are.
        expect(got.points).toEqual((await rest(`${new URLSearchParams(args)}&group=${group}`)).body.points);
        const daily = (await rest(new URLSearchParams(args).toString())).body;
        expect(daily.count).toBe(rows.length);
        const text = result.content[0].text;
        expect(text).toContain(`Grouped by ${group} to fit an agent's answer: the ${daily.count} points of the window`);
        // The URL it gives answers every daily point of the window.
        const url = /every point is at (http:\/\/t\/api\/v1\/history\.csv\?\S+)/.exec(text)![1];
        const csv = await (await lib.csvRoute.GET(new Request(url))).text();
        expect(csv.trim().split('\n').length - 1).toBe(daily.count);
      }
      // A year of daily closes fits as it is.
      const year = (await client.callTool({ name: 'get_gold_history', arguments: { range: '1y' } })) as Answer;
      expect(year.structuredContent.interval).toBe('daily');
      expect(year.content[0].text).not.toContain('Grouped by');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
