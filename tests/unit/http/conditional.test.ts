import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as openapi from '@/app/api/openapi.json/route';
import * as cron from '@/app/api/cron/sample/route';
import * as llms from '@/app/llms.txt/route';
import * as spot from '@/app/api/v1/spot/route';
import * as intradayCsv from '@/app/api/v1/intraday.csv/route';
import * as intraday from '@/app/api/v1/intraday/route';
import * as chartCsv from '@/app/api/v1/chart.csv/route';
import * as pricePage from '@/app/widgets/price/route';
import * as chartPage from '@/app/widgets/chart/route';
import * as converterPage from '@/app/widgets/converter/route';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { realChartHandler } from '../../support/yahoo';

// Conditional requests at the route handlers (decisions §23), Request in, Response out: every cacheable
// 200 carries an ETag (and Last-Modified, the newest data time it shows, where it has `updated_at`); a request holding the same answer
// gets 304 with the same cache headers and no body; when the data moves, the old validators get the new
// answer; errors and no-store answers carry no validator. Every upstream is the fake (recorded real bodies).

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-conditional-')));
  // The default 5 s upstream deadline: no fault here waits on it, and a shorter one can lapse on a loaded machine,
  // turning a fresh price stale between two requests that expect the same answer.
  vi.stubEnv('CACHE_TTL_S', '1');
  vi.stubEnv('CRON_SECRET', 'conditional-secret');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
});

const gold = fixture('goldapi-price-XAU.json');
/** The current second, as gold-api.com writes its `updatedAt`. */
const nowIso = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

type Handler = (req: Request) => Promise<Response>;
const get = (handler: Handler, pathAndQuery: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://t${pathAndQuery}`, { headers }));
/** The headers a 304 repeats from its 200 (RFC 9110 §15.4.5), and those a cache reads. */
const KEPT = ['etag', 'last-modified', 'cache-control', 'cdn-cache-control', 'vary', 'access-control-allow-origin'];
const kept = (res: Response) => Object.fromEntries(KEPT.map((h) => [h, res.headers.get(h)]));

async function expectRevalidates(handler: Handler, pathAndQuery: string, dated: boolean) {
  const first = await get(handler, pathAndQuery);
  expect(first.status).toBe(200);
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^W\/"[\w-]+"$/);
  expect(first.headers.get('last-modified') !== null).toBe(dated);
  const byTag = await get(handler, pathAndQuery, { 'if-none-match': etag! });
  expect(byTag.status).toBe(304);
  expect(await byTag.text()).toBe('');
  expect(kept(byTag)).toEqual(kept(first));
  if (dated) {
    const byDate = await get(handler, pathAndQuery, { 'if-modified-since': first.headers.get('last-modified')! });
    expect(byDate.status).toBe(304);
    expect(kept(byDate)).toEqual(kept(first));
  }
  // A tag the client does not hold: the whole answer.
  expect((await get(handler, pathAndQuery, { 'if-none-match': 'W/"other"' })).status).toBe(200);
  return first;
}

describe('validators and 304 at the route handlers', () => {
  it('spot: 304 while the data stands, though every answer is made anew; the new price gets 200 with new validators', async () => {
    const first = await expectRevalidates(spot.GET, '/api/v1/spot?compact=1', true);
    const body = await first.json();
    // Past the data's TTL the price is fetched again: the same price gives the same representation.
    await sleep(1100);
    const again = await get(spot.GET, '/api/v1/spot?compact=1', { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    // The price moves, with the upstream's time of it now (newer than any other data shown): the old validators get the new answer.
    fake.set('gold', { mode: 'json', body: { ...gold, price: gold.price + 1.25, updatedAt: nowIso() } });
    await sleep(1100);
    const moved = await get(spot.GET, '/api/v1/spot?compact=1', { 'if-none-match': first.headers.get('etag')! });
    expect(moved.status).toBe(200);
    expect((await moved.json()).spot_usd_oz).not.toBe(body.spot_usd_oz);
    expect(moved.headers.get('etag')).not.toBe(first.headers.get('etag'));
    const byOldDate = await get(spot.GET, '/api/v1/spot?compact=1', { 'if-modified-since': first.headers.get('last-modified')! });
    // Last-Modified moved with the content (a whole second later at least).
    expect(Date.parse(moved.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(first.headers.get('last-modified')!));
    expect(byOldDate.status).toBe(200);
    fake.reset();
  });

  it('spot: Last-Modified is the newest data time it shows, the same on another instance; newer data, a later one', async () => {
    type Dated = { as_of: string | null };
    type SpotBody = { data_state: Dated; groups: Record<string, Dated>; sources: Dated[] };
    /** The newest `as_of` the answer shows, to the second, read from the answer itself. */
    const newest = (b: SpotBody) =>
      Math.floor(
        Math.max(
          ...[b.data_state, ...Object.values(b.groups), ...b.sources]
            .map((d) => (d.as_of === null ? NaN : Date.parse(d.as_of)))
            .filter(Number.isFinite),
        ) / 1000,
      ) * 1000;
    const url = '/api/v1/spot?currency=EUR';
    // The recorded price again, past the TTL of the one before.
    fake.reset();
    await sleep(1100);
    const one = await get(spot.GET, url);
    const oneBody = (await one.json()) as SpotBody;
    expect(one.headers.get('last-modified')).toBe(new Date(newest(oneBody)).toUTCString());
    // Another instance on the same store, a second later: its own modules (its own memory of what it served and
    // when), the same data. It names the same time, so neither can answer a 304 for the other's older answer.
    await sleep(1100);
    vi.resetModules();
    const other = (await import('@/app/api/v1/spot/route')) as typeof spot;
    expect(other.GET).not.toBe(spot.GET);
    const two = await get(other.GET, url);
    expect(two.status).toBe(200);
    expect(two.headers.get('etag')).toBe(one.headers.get('etag'));
    expect(two.headers.get('last-modified')).toBe(one.headers.get('last-modified'));
    expect((await get(other.GET, url, { 'if-modified-since': one.headers.get('last-modified')! })).status).toBe(304);
    // Newer data (a new price, with the upstream's time of it now): a later Last-Modified on either instance, so
    // the older date gets the new answer.
    fake.set('gold', { mode: 'json', body: { ...gold, price: gold.price + 2.5, updatedAt: nowIso() } });
    await sleep(1100);
    for (const handler of [spot.GET, other.GET]) {
      const moved = await get(handler, url, { 'if-modified-since': one.headers.get('last-modified')! });
      expect(moved.status).toBe(200);
      const movedBody = (await moved.json()) as SpotBody;
      expect(Date.parse(movedBody.data_state.as_of!)).toBeGreaterThan(Date.parse(oneBody.data_state.as_of!));
      expect(moved.headers.get('last-modified')).toBe(new Date(newest(movedBody)).toUTCString());
      expect(Date.parse(moved.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(one.headers.get('last-modified')!));
    }
    fake.reset();
  });

  it('CSV, the OpenAPI document, llms.txt and a widget page revalidate too (the documents have no updated_at: ETag alone)', async () => {
    await get(cron.GET, '/api/cron/sample', { authorization: 'Bearer conditional-secret' });
    // The recorded series has a data time only once a sample is in the window (none while the market is closed).
    const intradayAsOf = ((await (await get(intraday.GET, '/api/v1/intraday?hours=1')).json()) as { data_state: { as_of: string | null } }).data_state
      .as_of;
    await expectRevalidates(intradayCsv.GET, '/api/v1/intraday.csv?hours=1', intradayAsOf !== null);
    fake.onChart(realChartHandler());
    await expectRevalidates(chartCsv.GET, '/api/v1/chart.csv?range=1mo', true);
    fake.onChart(null);
    await expectRevalidates(openapi.GET, '/api/openapi.json', false);
    await expectRevalidates(llms.GET, '/llms.txt', false);
    await expectRevalidates(pricePage.GET, '/widgets/price?currency=EUR', true);
  });

  it('errors and no-store answers carry no validator, and a validator never turns them into a 304', async () => {
    for (const [handler, url, headers, status] of [
      [spot.GET, '/api/v1/spot?currency=XXX', {}, 400],
      [cron.GET, '/api/cron/sample', { authorization: 'Bearer conditional-secret' }, 200],
      [cron.GET, '/api/cron/sample', {}, 401],
    ] as const) {
      const res = await get(handler, url, { ...headers, 'if-none-match': '*' });
      expect(res.status, url).toBe(status);
      expect(res.headers.get('etag')).toBeNull();
      expect(res.headers.get('last-modified')).toBeNull();
    }
  });
});

describe('widget pages: validators from the data they show (decisions §25)', () => {
  const goldBody = fixture('goldapi-price-XAU.json');
  it('a fresh price: the same ETag and Last-Modified over several seconds while "updated N s ago" moves; 304 on either validator', async () => {
    // A price stamped a second ago (the recorded bodies are months old, so their "N ago" text moves by the minute,
    // not by the second): gold-api.com alone, so the price shown is this one.
    const asOf = Math.floor(Date.now() / 1000) * 1000 - 1000;
    fake.set('gold', { mode: 'json', body: { ...goldBody, updatedAt: new Date(asOf).toISOString() } });
    fake.set('quotes', { mode: 'refuse' });
    // Past the feed's TTL (1 s here), so no price held from an earlier test is served.
    await sleep(1100);
    try {
      for (const [handler, url] of [
        [pricePage.GET, '/widgets/price?currency=EUR&silver=1'],
        [converterPage.GET, '/widgets/converter?amount=2'],
        [chartPage.GET, '/widgets/chart?range=1d'],
      ] as const) {
        const first = await get(handler, url);
        expect(first.status, url).toBe(200);
        const firstText = (await first.text()).match(/data-f="fresh">([^<]*)</)![1];
        // Last-Modified is the price's own time (to the second), not when this instance first served the page.
        expect(first.headers.get('last-modified'), url).toBe(new Date(asOf).toUTCString());
        // Past the feed's TTL (1 s here): the price is fetched again, the page made anew, its freshness text older.
        await sleep(2100);
        const later = await get(handler, url);
        const laterText = (await later.text()).match(/data-f="fresh">([^<]*)</)![1];
        expect(laterText, url).not.toBe(firstText);
        expect(kept(later), url).toEqual(kept(first));
        const byTag = await get(handler, url, { 'if-none-match': first.headers.get('etag')! });
        expect(byTag.status, url).toBe(304);
        expect(kept(byTag), url).toEqual(kept(first));
        const byDate = await get(handler, url, { 'if-modified-since': first.headers.get('last-modified')! });
        expect(byDate.status, url).toBe(304);
      }
      // A new price: new validators, and the old ones get the whole page.
      const url = '/widgets/price?currency=EUR&silver=1';
      const before = await get(pricePage.GET, url);
      const next = asOf + 2000;
      fake.set('gold', { mode: 'json', body: { ...goldBody, price: 4444.5, updatedAt: new Date(next).toISOString() } });
      await sleep(1100);
      const moved = await get(pricePage.GET, url, { 'if-none-match': before.headers.get('etag')! });
      expect(moved.status).toBe(200);
      expect(moved.headers.get('etag')).not.toBe(before.headers.get('etag'));
      expect(moved.headers.get('last-modified')).toBe(new Date(next).toUTCString());
      expect((await get(pricePage.GET, url, { 'if-modified-since': before.headers.get('last-modified')! })).status).toBe(200);
    } finally {
      fake.reset();
    }
  });
});
