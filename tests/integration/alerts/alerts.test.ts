import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertCreated, AlertView } from '@/lib/schemas/alerts';
import { startReceiver, type Answer, type Received } from '../../support/alert-receiver';
import { App } from '../../support/app';
import { waitFor } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';

// Price alerts end to end through `npm start` (decisions §28, §33): the request goes through the server's method rules
// (POST passes on /api/v1/alerts only), the in-process sampler takes the readings, and a local receiver checks each
// delivery with the standardwebhooks library. The two gold prices are real recorded answers of gold-api.com
// (2026-08-18 and 2026-09-03); the level lies between them. Then the process is killed between a crossing and its
// delivery, and started again. The rest (every failure path) is tested in process (tests/unit/alerts/).

const before: { price: number } = fixture('goldapi-price-XAU.json');
const after: { price: number } = fixture('goldapi-price-XAU-2026-09-03.json');
const LEVEL = Math.round((before.price + after.price) / 2);
// Silver's two recorded answers (2026-03-22 and 2026-09-03): the price fell between them. The crash test's crossing.
const silverBefore: { price: number } = fixture('goldapi-price-XAG-legacy-format-2026-03-22.json');
const silverAfter: { price: number } = fixture('goldapi-price-XAG.json');
const SILVER_LEVEL = Math.round(((silverBefore.price + silverAfter.price) / 2) * 100) / 100;
/** A price in USD per ounce as spot rounds it (two decimals). */
const cents = (n: number) => Math.round(n * 100) / 100;

let fake: FakeUpstream;
let app: App;
let receiver: http.Server;
let hook = '';
let origin = '';
let received: Received[] = [];

/**
 * How the receiver answers: 200 (with the challenge) but for the second verification on /crash, held unanswered (the
 * target is busy with it), and the first event on /retry, answered 503.
 */
const answer: Answer = (json, path, n) => {
  if (path === '/crash' && json.type === 'alert.verification' && n === 2) return 'hang';
  if (path === '/retry' && json.type === 'alert.triggered' && n === 1) return 503;
  return 200;
};

beforeAll(async () => {
  ({ server: receiver, url: hook, origin, received } = await startReceiver(answer));
  fake = await FakeUpstream.start();
  // The quotes feed refuses: gold and silver come from gold-api.com alone, as the fixtures give them; silver starts at
  // its older price.
  fake.set('quotes', { mode: 'refuse' });
  fake.set('silver', { mode: 'ok', fixture: 'goldapi-price-XAG-legacy-format-2026-03-22.json' });
  app = await App.start({
    // The market open (the sampler samples while it is), every TTL at 1 s so each sample reads the upstream again.
    env: {
      ...fake.env(),
      ...marketClockAt(OPEN_DAY),
      SAMPLER: 'on',
      SAMPLE_INTERVAL_S: '2',
      CACHE_TTL_S: '1',
      ALERT_TARGETS_ALLOW: '127.0.0.1',
      // A retry waits an hour in this run: what sends it is the instance started after the crash.
      ALERT_RETRY_SCHEDULE_S: '3600',
      // A target busy with a delivery stays busy for the whole test.
      ALERT_TIMEOUT_MS: '60000',
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

/** The intraday points of a metal recorded so far: one per sample, each a reading taken. */
const samples = async (symbol = 'xau') => (await app.json(`/api/v1/intraday?symbol=${symbol}&hours=1`)).body.count as number;

/**
 * Waits until the sampler has taken a reading of the metal after now (so an alert armed before has a previous reading):
 * two more points, as the first may come from a sample whose fetch was under way already.
 */
async function aReadingAfterNow(symbol = 'xau'): Promise<void> {
  const n = await samples(symbol);
  await waitFor(
    () => samples(symbol),
    (m: number) => m >= n + 2,
    30_000,
  );
}

const post = (path: string, body: unknown) =>
  app.get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('price alerts through npm start', () => {
  it('a crossing seen by the sampler delivers one signed event at spot’s price; the server passes POST and DELETE only where they belong', async () => {
    const res = await post('/api/v1/alerts', { metal: 'gold', currency: 'USD', unit: 'oz', above: LEVEL, webhook: { url: hook } });
    expect(res.status).toBe(201);
    const created = AlertCreated.parse(await res.json());
    expect(res.headers.get('location')).toBe(created.manage_url);
    const manage = new URL(created.manage_url);
    const path = manage.pathname + manage.search;
    await waitFor(
      async () => (await app.json(path)).body,
      (v) => v.status === 'active',
      30_000,
    );
    // The sampler reads the first price (below the level) again after the alert was armed (a crossing counts only from
    // a reading taken after that); then the upstream answers the later one.
    await aReadingAfterNow();
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    const triggered = await waitFor(
      async () => received.filter((r) => r.json.type === 'alert.triggered'),
      (e) => e.length > 0,
      30_000,
    );
    const spot = await app.json('/api/v1/spot?currency=USD&unit=oz&compact=1');
    expect(spot.body.spot_usd_oz).toBe(after.price);
    const [event] = triggered;
    expect(() => new Webhook(created.secret!).verify(event.body, event.headers as Record<string, string>)).not.toThrow();
    expect(event.json.data).toMatchObject({
      alert_id: created.id,
      condition: { type: 'above', value: LEVEL },
      price: spot.body.xau.price,
      previous: before.price,
    });
    // More samples of the same price fire nothing more.
    const n = (await app.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number;
    await waitFor(
      async () => (await app.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number,
      (m: number) => m >= n + 2,
      30_000,
    );
    expect(received.filter((r) => r.json.type === 'alert.triggered')).toHaveLength(1);
    const shown = await app.json(path);
    expect(shown.status).toBe(200);
    const view = AlertView.parse(shown.body);
    expect(view).toMatchObject({ status: 'fired', fired_count: 1, delivered_count: 1 });
    const status = await app.json('/api/v1/status');
    expect(status.body.alerts).toMatchObject({ enabled: true, fired: 1, delivered: 1 });

    // The methods: the collection takes POST only, an alert GET/HEAD/DELETE, everything else stays GET-only.
    const getCollection = await app.get('/api/v1/alerts');
    expect(getCollection.status).toBe(405);
    expect(getCollection.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await post('/api/v1/spot', {})).status).toBe(405);
    expect((await app.get(path, { method: 'PUT', body: '{}' })).status).toBe(405);
    expect((await app.get(path.replace(/token=[^&]+/, 'token=wrong'), { method: 'DELETE' })).status).toBe(404);
    expect((await app.get(path, { method: 'DELETE' })).status).toBe(204);
    expect((await app.get(path)).status).toBe(404);
    // The docs: the page with its receiver, and the OpenAPI document with the POST.
    const page = await app.get('/docs/alerts');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('standardwebhooks');
    expect(html).toContain('wh.verify(body, req.headers)');
    const openapi = await app.json('/api/openapi.json');
    expect(openapi.body.paths['/api/v1/alerts'].post.operationId).toBe('createAlert');
    const preflight = await app.get('/api/v1/alerts', {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });

  it('killed between a crossing and its delivery, the instance started again delivers the event once; a retry due meanwhile is sent after the restart', async () => {
    // Silver is above the level now (its older price). Two alerts below it, on two targets, both verified.
    const create = async (path: string, condition: Record<string, number>) => {
      const res = await post('/api/v1/alerts', { metal: 'silver', currency: 'USD', unit: 'oz', ...condition, webhook: { url: `${origin}${path}` } });
      expect(res.status).toBe(201);
      const made = AlertCreated.parse(await res.json());
      const url = new URL(made.manage_url);
      return { ...made, path: url.pathname + url.search };
    };
    const shown = async (path: string) => AlertView.parse((await app.json(path)).body);
    const crash = await create('/crash', { below: SILVER_LEVEL });
    const retry = await create('/retry', { below: SILVER_LEVEL });
    for (const a of [crash, retry])
      await waitFor(
        () => shown(a.path),
        (v) => v.status === 'active',
        30_000,
      );
    await aReadingAfterNow('xag');
    // A third alert on /crash: its verification is held by the target, which is then busy: /crash's next delivery waits.
    await create('/crash', { above: 10 * SILVER_LEVEL });
    await waitFor(
      async () => received.filter((r) => r.path === '/crash' && r.json.type === 'alert.verification').length,
      (n) => n === 2,
      30_000,
    );
    // The crossing: silver's later price, below the level.
    fake.set('silver', { mode: 'ok', fixture: 'goldapi-price-XAG.json' });
    // Fired, its event waiting in the store for /crash; the other's first attempt answered 503, its retry an hour away.
    await waitFor(
      () => shown(crash.path),
      (v) => v.status === 'fired',
      30_000,
    );
    await waitFor(
      () => shown(retry.path),
      (v) => v.deliveries.some((d) => d.type === 'alert.triggered'),
      30_000,
    );
    const triggered = (path: string) => received.filter((r) => r.path === path && r.json.type === 'alert.triggered');
    expect(triggered('/crash')).toHaveLength(0);
    expect((await shown(crash.path)).deliveries.map((d) => d.type)).toEqual(['alert.verification']);
    expect((await shown(retry.path)).deliveries[0]).toMatchObject({ type: 'alert.triggered', http_status: 503, outcome: 'retrying' });

    await app.kill();
    // Started again on the same store; retries now wait a second after the attempt before.
    await app.restart({ ALERT_RETRY_SCHEDULE_S: '1' });
    const [event] = await waitFor(
      () => Promise.resolve(triggered('/crash')),
      (e) => e.length > 0,
      30_000,
    );
    expect(() => new Webhook(crash.secret!).verify(event.body, event.headers as Record<string, string>)).not.toThrow();
    expect(event.json.data).toMatchObject({
      alert_id: crash.id,
      metal: 'silver',
      condition: { type: 'below', value: SILVER_LEVEL },
      price: cents(silverAfter.price),
      previous: cents(silverBefore.price),
    });
    await waitFor(
      () => Promise.resolve(triggered('/retry')),
      (e) => e.length === 2,
      30_000,
    );
    const [first, second] = triggered('/retry');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(() => new Webhook(retry.secret!).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
    // Recorded, and once: nothing more is sent over the next readings.
    await waitFor(
      () => shown(crash.path),
      (v) => v.delivered_count === 1,
      30_000,
    );
    await waitFor(
      () => shown(retry.path),
      (v) => v.delivered_count === 1,
      30_000,
    );
    await aReadingAfterNow('xag');
    expect(triggered('/crash')).toHaveLength(1);
    expect(triggered('/retry')).toHaveLength(2);
  }, 120_000);
});
