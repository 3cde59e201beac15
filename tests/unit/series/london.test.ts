import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtureBars } from '../../support/bars';
import { expectRounded, G_PER_OZ, sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { ratesOf } from '../../support/fx-history';

// The London-time values (decisions §30), in process: the spot, history and history.csv route handlers and the MCP
// server on one embedded store, every upstream the fake (recorded real bodies; gold's price set from real rows of the
// broker's daily file, tests/fixtures). The service's calendar clock (MARKET_CLOCK_OFFSET_S) is put a moment before a
// London time of a real day, and the readings spot takes then are what the values must be.

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-london-'));
let fake: FakeUpstream;
let routes: {
  spot: typeof import('@/app/api/v1/spot/route');
  history: typeof import('@/app/api/v1/history/route');
  csv: typeof import('@/app/api/v1/history.csv/route');
};
let client: Client;

const goldBody = fixture('goldapi-price-XAU.json');
// Real gold prices of three days (opens and closes), served in turn so a value taken from the wrong reading shows.
const [r1, r2, r3] = fixtureBars(['2026-03-09', '2026-03-10', '2026-03-11']);

/** London wall-clock time of a date in April 2026 (BST, UTC+1). */
const bst = (date: string, hhmmss: string) => Date.parse(`${date}T${hhmmss}+01:00`);
let offsetMs = 0;
/** Puts the service's calendar clock at `instant` (ms) now; it runs on from there. */
function clockAt(instant: number): void {
  offsetMs = instant - Date.now();
  vi.stubEnv('MARKET_CLOCK_OFFSET_S', String(offsetMs / 1000));
}
const onClock = () => Date.now() + offsetMs;
function serveGold(price: number): void {
  fake.set('gold', { mode: 'json', body: { ...goldBody, price, updatedAt: new Date().toISOString() } });
}

type Json = Record<string, any>;
const get = async (route: { GET: (r: Request) => Promise<Response> }, query: string) => {
  const res = await route.GET(new Request(`http://t${query}`));
  return { status: res.status, res, text: await res.text() };
};
const json = async (query: string): Promise<{ status: number; body: Json }> => {
  const r = await get(routes.history, query);
  return { status: r.status, body: JSON.parse(r.text) as Json };
};
const london = (symbol: string, extra = '') => json(`/api/v1/history?series=london&symbol=${symbol}${extra}`);

/** A reading taken by spot for this request (past the 0.3 s cache of the last one), at `instant` on the calendar clock when given. */
async function spotReading(instant?: number): Promise<Json> {
  await sleep(400);
  if (instant !== undefined) clockAt(instant);
  const { status, text } = await get(routes.spot, '/api/v1/spot');
  expect(status).toBe(200);
  const body = JSON.parse(text) as Json;
  expect(body.data_state.source, 'spot took a new reading').toBe('upstream');
  return body;
}

/** The value of `date` in a London series, once the recording's write (handed past the answer) is in. */
async function valueOn(symbol: string, time: string, date: string): Promise<Json> {
  let point: Json | undefined;
  await expect
    .poll(async () => {
      point = (await london(symbol, `&time=${time}`)).body.points.find((p: Json) => p.d === date);
      return point;
    })
    .toBeDefined();
  return point!;
}
const datesOf = async (symbol: string, time: string) => (await london(symbol, `&time=${time}`)).body.points.map((p: Json) => p.d as string);

beforeAll(async () => {
  fake = await FakeUpstream.start();
  for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
  vi.stubEnv('DATA_DIR', DIR);
  vi.stubEnv('CACHE_TTL_S', '0.3');
  vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1500');
  // One live source: the served price is gold-api.com's, whatever the test sets it to.
  fake.set('quotes', { mode: 'status', status: 503 });
  routes = {
    spot: await import('@/app/api/v1/spot/route'),
    history: await import('@/app/api/v1/history/route'),
    csv: await import('@/app/api/v1/history.csv/route'),
  };
  const { createGoldServer } = await import('@/lib/mcp/server');
  const server = createGoldServer({ origin: 'http://t' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
});
afterAll(async () => {
  await client?.close();
  vi.unstubAllEnvs();
  await fake?.close();
});

describe('recording', () => {
  it('before any value: 200, no points, unavailable', async () => {
    clockAt(bst('2026-04-15', '12:00:00'));
    const { status, body } = await london('xau');
    expect(status).toBe(200);
    expect(body.points).toEqual([]);
    expect(body.count).toBe(0);
    expect(body.data_state.status).toBe('unavailable');
    expect(body.time).toBe('pm');
  });

  it('the value at 15:00 London is the first fresh reading spot took at or after that minute', async () => {
    // Wednesday 15 April 2026, a London business day: the clock two seconds before 15:00.
    const at = bst('2026-04-15', '15:00:00');
    serveGold(r1.o);
    const before = await spotReading(at - 2500);
    expect(before.spot_usd_oz).toBe(r1.o);
    // Past 15:00 on the service's clock, a new price upstream: the next reading spot takes is the value.
    while (onClock() < at + 100) await sleep(100);
    serveGold(r1.c);
    const first = await spotReading();
    serveGold(r2.o);
    const later = await spotReading();
    expect(later.spot_usd_oz).not.toBe(first.spot_usd_oz);

    const point = await valueOn('xau', 'pm', '2026-04-15');
    expect(point.p).toBe(first.spot_usd_oz);
    expect(Object.keys(point)).toEqual(['d', 'p', 't']);
    // `t` is when the service took it: on its clock, within the five minutes from 15:00.
    const taken = Date.parse(point.t) + offsetMs;
    expect(taken).toBeGreaterThanOrEqual(at);
    expect(taken).toBeLessThan(at + 5 * 60_000);
    // The reading before 15:00 is no value, and later readings in the window change nothing.
    expect(point.p).not.toBe(before.spot_usd_oz);
    await spotReading();
    expect((await valueOn('xau', 'pm', '2026-04-15')).p).toBe(first.spot_usd_oz);
    const { body } = await london('xau');
    expect(body.points.filter((p: Json) => p.d === '2026-04-15')).toHaveLength(1);
    expect(body.data_state.status).toBe('fresh');
    expect(body.source).toMatch(/London 15:00/);
    expect(body.london_time).toBe('15:00');
  });

  it('outside the five minutes there is no value: a reading at 10:29:59 or 10:35:00 is not 10:30’s, one at 10:34:59 is', async () => {
    serveGold(r2.c);
    await spotReading(bst('2026-04-15', '10:29:59'));
    await spotReading(bst('2026-04-15', '10:35:00.200'));
    // The window's last second still counts (Monday 13 April): once that reading's value is in, the ones before had their turn.
    serveGold(r3.h);
    const last = await spotReading(bst('2026-04-13', '10:34:59'));
    expect((await valueOn('xau', 'am', '2026-04-13')).p).toBe(last.spot_usd_oz);
    expect(await datesOf('xau', 'am')).not.toContain('2026-04-15');
  });

  it('none on a Saturday, none on an England and Wales bank holiday', async () => {
    serveGold(r3.o);
    // Saturday 11 April 2026, and Easter Monday 6 April 2026 (the New York market is open that day).
    await spotReading(bst('2026-04-11', '15:00:00.200'));
    await spotReading(bst('2026-04-06', '15:00:00.200'));
    // A business day after them, so there is a write to wait for: Tuesday 14 April.
    serveGold(r3.c);
    const tuesday = await spotReading(bst('2026-04-14', '15:00:00.200'));
    expect((await valueOn('xau', 'pm', '2026-04-14')).p).toBe(tuesday.spot_usd_oz);
    const dates = await datesOf('xau', 'pm');
    expect(dates).not.toContain('2026-04-11');
    expect(dates).not.toContain('2026-04-06');
  });

  it('each metal at its own times: platinum and palladium 09:45 and 14:00, silver 12:00, gold 10:30', async () => {
    const day = '2026-04-14';
    const am = await spotReading(bst(day, '09:45:00.200'));
    const noon = await spotReading(bst(day, '12:00:00.200'));
    const pm = await spotReading(bst(day, '14:00:00.200'));
    const goldAm = await spotReading(bst(day, '10:30:00.200'));
    expectRounded((await valueOn('xpt', 'am', day)).p, am.platinum_usd_oz, 2);
    expectRounded((await valueOn('xpd', 'am', day)).p, am.palladium_usd_oz, 2);
    expectRounded((await valueOn('xag', 'noon', day)).p, noon.silver_usd_oz, 2);
    expectRounded((await valueOn('xpt', 'pm', day)).p, pm.platinum_usd_oz, 2);
    expectRounded((await valueOn('xpd', 'pm', day)).p, pm.palladium_usd_oz, 2);
    expectRounded((await valueOn('xau', 'am', day)).p, goldAm.spot_usd_oz, 2);
    // A metal's reading at another metal's time is not its value: silver has none at 09:45, gold none at 14:00.
    const silver = (await london('xag')).body.points as Json[];
    expect(silver).toHaveLength(1);
    expectRounded(silver[0].p, noon.silver_usd_oz, 2);
    // Defaults: silver's only time, the afternoon for the others.
    expect((await london('xag')).body.time).toBe('noon');
    expectRounded((await london('xpt')).body.points.find((p: Json) => p.d === day).p, pm.platinum_usd_oz, 2);
  });

  it('the cron route records it, and answers only once it is written', async () => {
    vi.stubEnv('CRON_SECRET', 'london-secret');
    const cron = await import('@/app/api/cron/sample/route');
    // Monday 13 April 2026, 14:00 London (09:00 New York: the market is open, so the sampler samples).
    await sleep(400);
    clockAt(bst('2026-04-13', '14:00:00.200'));
    const res = await cron.GET(new Request('http://t/api/cron/sample', { headers: { authorization: 'Bearer london-secret' } }));
    expect(res.status).toBe(200);
    expect((await res.json()).samples.xpt).toBe('recorded');
    // No polling: the value is in the store when the route has answered.
    const platinum = JSON.parse((await get(routes.spot, '/api/v1/spot')).text) as Json;
    const point = (await london('xpt', '&time=pm')).body.points.find((p: Json) => p.d === '2026-04-13');
    expectRounded(point?.p, platinum.platinum_usd_oz, 2);
  });

  it('survives a restart: the values are in the embedded store’s file', async () => {
    const { openEmbeddedStore } = await import('@/lib/store/embedded');
    const { londonValues } = await import('@/lib/store/london-values');
    const fresh = openEmbeddedStore(DIR);
    try {
      const { values } = await londonValues(fresh, 'london:xau:pm');
      const served = (await london('xau')).body.points as Json[];
      expect(values.map((v) => ({ d: v.d, p: v.p, t: new Date(v.t).toISOString() }))).toEqual(served);
    } finally {
      await fresh.close();
    }
  });
});

describe('serving', () => {
  it('a time the metal does not have is a 400 listing its own; time without series=london and group are refused too', async () => {
    clockAt(bst('2026-04-15', '18:00:00'));
    for (const [query, valid] of [
      ['&symbol=xag&time=pm', ['noon']],
      ['&symbol=xau&time=noon', ['am', 'pm']],
      ['&symbol=xpd&time=noon', ['am', 'pm']],
      ['&symbol=xau&time=evening', ['am', 'pm', 'noon']],
    ] as const) {
      const { status, body } = await json(`/api/v1/history?series=london${query}`);
      expect(status, query).toBe(400);
      expect(body.valid, query).toEqual(valid);
      expect(body.error).toMatch(/time/);
      expect(body.data_state).toBeDefined();
    }
    expect((await json('/api/v1/history?series=spot&time=pm')).status).toBe(400);
    const week = await json('/api/v1/history?series=london&group=week');
    expect(week.status).toBe(400);
    expect(week.body.valid).toEqual(['year']);
  });

  it('in another currency and unit, each value at the rate of its own day', async () => {
    const usd = (await london('xau')).body.points as Json[];
    const eur = await london('xau', '&currency=EUR');
    expect(eur.status).toBe(200);
    const rates = ratesOf('EUR');
    expect(rates.get('2026-04-14')).not.toBe(rates.get('2026-04-15'));
    expect(eur.body.currency).toBe('EUR');
    expect(eur.body.points.map((p: Json) => p.d)).toEqual(usd.map((p) => p.d));
    for (const [i, p] of (eur.body.points as Json[]).entries()) {
      expect(p.fx).toBe(rates.get(p.d));
      expectRounded(p.p, usd[i].p * rates.get(p.d)!, 2);
      expect(p.t).toBe(usd[i].t);
    }
    const gram = (await london('xau', '&unit=gram')).body.points as Json[];
    for (const [i, p] of gram.entries()) expectRounded(p.p, usd[i].p / G_PER_OZ, 4);
  });

  it('windows and date=: the value of a day, or the last before it', async () => {
    const all = (await london('xau')).body.points as Json[];
    const one = await london('xau', '&date=2026-04-14');
    expect(one.body.points).toEqual([all.find((p) => p.d === '2026-04-14')]);
    // A day without a value answers the last before it; before the first value, 404.
    const after = await london('xau', '&date=2026-04-16');
    expect(after.body.points).toEqual([all.find((p) => p.d === '2026-04-15')]);
    expect(after.body.requested_date).toBe('2026-04-16');
    expect((await london('xau', '&date=2026-04-13')).status).toBe(404);
    const from = await london('xau', '&from=2026-04-15');
    expect(from.body.points.map((p: Json) => p.d)).toEqual(['2026-04-15']);
    expect(from.body.period).toMatchObject({ from: '2026-04-15', to: '2026-04-15', first: from.body.points[0].p });
    // The values of 2026 as one year: first, last, extremes and average of the values, no year before them.
    const year = await london('xau', '&group=year');
    expect(year.status).toBe(200);
    const values = all.map((p) => p.p as number);
    expect(year.body).toMatchObject({ interval: 'yearly', bars_of: 'daily', count: 1 });
    const [bar] = year.body.points as Json[];
    expect(bar).toMatchObject({
      d: all[0].d,
      o: values[0],
      c: values.at(-1),
      h: Math.max(...values),
      l: Math.min(...values),
      days: values.length,
      change: null,
      change_pct: null,
    });
    // The average of the unrounded values, rounded once: within a cent of the average of the rounded ones.
    expect(Math.abs((bar.avg as number) - values.reduce((s, v) => s + v, 0) / values.length)).toBeLessThanOrEqual(0.01);
  });

  it('CSV: date,price,time, and the fx columns when converted', async () => {
    const usd = (await london('xau')).body.points as Json[];
    const csv = await get(routes.csv, '/api/v1/history.csv?series=london&symbol=xau&time=pm');
    expect(csv.status).toBe(200);
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe('date,price,time');
    expect(rows.slice(1)).toEqual(usd.map((p) => `${p.d},${p.p},${p.t}`));
    const eur = (await london('xau', '&currency=EUR')).body.points as Json[];
    const eurCsv = await get(routes.history, '/api/v1/history?series=london&symbol=xau&currency=EUR&format=csv');
    const eurRows = eurCsv.text.trim().split('\r\n');
    expect(eurRows[0]).toBe('date,price,time,fx,fx_d');
    expect(eurRows.slice(1)).toEqual(eur.map((p) => `${p.d},${p.p},${p.t},${p.fx},${p.fx_d ?? ''}`));
  });

  it('MCP get_gold_history takes series london and time, and says what the values are', async () => {
    const rest = (await london('xpt', '&time=am')).body;
    const result = (await client.callTool({
      name: 'get_gold_history',
      arguments: { series: 'london', symbol: 'xpt', time: 'am', range: 'max' },
    })) as Json;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.points).toEqual(rest.points);
    const text = result.content[0].text as string;
    expect(text).toMatch(/09:45 London time/);
    expect(text).toContain(rest.points[0].p.toLocaleString('en-US'));
    const wrong = (await client.callTool({ name: 'get_gold_history', arguments: { series: 'london', symbol: 'xag', time: 'am' } })) as Json;
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0].text).toMatch(/noon/);
  });
});

describe('never named after a benchmark', () => {
  const BENCHMARK = /LBMA|\bfix(ing)?\b/i;

  it('no field, label or text of the values says LBMA, fix or fixing: JSON, CSV, MCP text', async () => {
    const texts: string[] = [];
    for (const [symbol, time] of [
      ['xau', 'am'],
      ['xau', 'pm'],
      ['xag', 'noon'],
      ['xpt', 'am'],
      ['xpd', 'pm'],
    ]) {
      texts.push((await get(routes.history, `/api/v1/history?series=london&symbol=${symbol}&time=${time}`)).text);
      texts.push((await get(routes.history, `/api/v1/history?series=london&symbol=${symbol}&time=${time}&currency=EUR&date=2026-04-14`)).text);
      texts.push((await get(routes.csv, `/api/v1/history.csv?series=london&symbol=${symbol}&time=${time}`)).text);
      const mcp = (await client.callTool({ name: 'get_gold_history', arguments: { series: 'london', symbol, time } })) as Json;
      texts.push(JSON.stringify(mcp));
    }
    // The empty answer too.
    clockAt(bst('2026-04-15', '18:00:00'));
    texts.push((await get(routes.history, '/api/v1/history?series=london&symbol=xau&time=am&from=2026-04-16')).text);
    for (const t of texts) expect(t).not.toMatch(BENCHMARK);
    // And the check can fail: a text that names one is caught.
    expect('London PM fix').toMatch(BENCHMARK);
  });

  it('the docs page names the values plainly; only its disclaimer mentions the benchmarks, to say these are not them', async () => {
    const { default: DataDocs } = await import('@/pages/docs/data');
    const html = renderToStaticMarkup(createElement(DataDocs));
    const row = html.match(/<tr id="series-london">[\s\S]*?<\/tr>/)?.[0];
    const section = html.match(/<section id="london-times"[\s\S]*?<\/section>/)?.[0];
    expect(row).toBeDefined();
    expect(section).toBeDefined();
    const disclaimer = section!.match(/<p id="london-not-benchmark">[\s\S]*?<\/p>/)?.[0];
    expect(disclaimer).toMatch(/not the LBMA Gold Price or the LBMA Silver Price/);
    expect(disclaimer).toMatch(/LME/);
    expect(row).not.toMatch(BENCHMARK);
    expect(section!.replace(disclaimer!, '')).not.toMatch(BENCHMARK);
  });
});
