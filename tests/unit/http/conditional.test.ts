import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as openapi from '@/app/api/openapi.json/route';
import * as cron from '@/app/api/cron/sample/route';
import * as llms from '@/app/llms.txt/route';
import * as spot from '@/app/api/v1/spot/route';
import * as intradayCsv from '@/app/api/v1/intraday.csv/route';
import * as pricePage from '@/app/widgets/price/route';
import { sleep } from '../../support/expect';
import { FakeUpstream } from '../../support/fake-upstream';

// Conditional requests at the route handlers (decisions §23), Request in, Response out: every cacheable
// 200 carries an ETag (and Last-Modified where it has `updated_at`); a request holding the same answer
// gets 304 with the same cache headers and no body; when the data moves, the old validators get the new
// answer; errors and no-store answers carry no validator. Every upstream is the fake (recorded real bodies).

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-conditional-')));
  vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1500');
  vi.stubEnv('CACHE_TTL_S', '1');
  vi.stubEnv('CRON_SECRET', 'conditional-secret');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
});

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
    // The price moves (a later real recording): the old validators get the new answer.
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
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

  it('CSV, the OpenAPI document, llms.txt and a widget page revalidate too (the documents have no updated_at: ETag alone)', async () => {
    await get(cron.GET, '/api/cron/sample', { authorization: 'Bearer conditional-secret' });
    await expectRevalidates(intradayCsv.GET, '/api/v1/intraday.csv?hours=1', true);
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
