import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';

// The self-hosted sampler of `npm start` records the London-time values on its own (decisions §30): the app's
// calendar clock is put 20 seconds before (room for a slow start) 15:00 London on a business day, the upstream's gold price changes at
// that minute (two real recorded bodies), and nobody but the sampler asks for a price. The value the app then
// serves is the price of the first reading at or after 15:00, as the app's own intraday series and spot show it.

const before = fixture('goldapi-price-XAU-2026-09-03.json');
const after = fixture('goldapi-price-XAU.json');
/** Tuesday 24 November 2026, 15:00 London (GMT). */
const AT = Date.parse('2026-11-24T15:00:00Z');
let fake: FakeUpstream;
let app: App;
let offsetMs: number;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
  // One live source, so the served price is the one set here.
  fake.set('quotes', { mode: 'status', status: 503 });
  offsetMs = AT - 20_000 - Date.now();
  app = await App.start({
    env: { ...fake.env(), SAMPLER: 'on', SAMPLE_INTERVAL_S: '5', CACHE_TTL_S: '1', MARKET_CLOCK_OFFSET_S: String(offsetMs / 1000) },
  });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('the sampler of npm start', () => {
  it('records 15:00’s value from the first reading at or after it, as the app’s intraday series shows it', async () => {
    expect(before.price).not.toBe(after.price);
    // At 15:00 on the app's clock the upstream moves.
    expect(Date.now() + offsetMs, 'the app started after 15:00 on its own clock').toBeLessThan(AT);
    while (Date.now() + offsetMs < AT) await sleep(100);
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU.json' });

    let point: { d: string; p: number; t: string } | undefined;
    await expect
      .poll(
        async () => {
          point = (await app.json('/api/v1/history?series=london&symbol=xau&time=pm')).body.points[0];
          return point;
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBeDefined();
    expect(point!.d).toBe('2026-11-24');
    expect(point!.p).toBe(after.price);
    const taken = Date.parse(point!.t) + offsetMs;
    expect(taken).toBeGreaterThanOrEqual(AT);
    expect(taken).toBeLessThan(AT + 5 * 60_000);

    // The sampler's first point at or after 15:00 has the same price; the points before it had the earlier one. The
    // reading that gave the value may have fallen in a bucket the series already held a point for (one a bucket),
    // so the series' first point after 15:00 can come with the next bucket: waited for, not assumed.
    let intraday: { t: number; p: number }[] = [];
    const firstAfter = () => intraday.find((x) => x.t * 1000 + offsetMs >= AT);
    await expect
      .poll(
        async () => {
          intraday = (await app.json('/api/v1/intraday?symbol=xau&hours=1')).body.points;
          return firstAfter();
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBeDefined();
    expect(firstAfter()!.p).toBe(point!.p);
    expect(intraday.filter((x) => x.t * 1000 + offsetMs < AT - 2000).every((x) => x.p === before.price)).toBe(true);
    // And spot serves that price now.
    expect((await app.json('/api/v1/spot')).body.spot_usd_oz).toBe(point!.p);
    // The CSV says the same.
    const csv = await (await app.get('/api/v1/history.csv?series=london&symbol=xau')).text();
    expect(csv.trim().split('\r\n')).toEqual(['date,price,time', `2026-11-24,${point!.p},${point!.t}`]);
  }, 240_000); // a cap, not a deadline: the polls above end at their event
});
