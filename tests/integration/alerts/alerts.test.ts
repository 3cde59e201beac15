import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertCreated, AlertView } from '@/lib/schemas/alerts';
import { startReceiver, type Received } from '../../support/alert-receiver';
import { App } from '../../support/app';
import { waitFor } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';

// Price alerts end to end through `npm start` (decisions §28): the request goes through the server's method rules
// (POST passes on /api/v1/alerts only), the in-process sampler takes the readings, and a local receiver checks each
// delivery with the standardwebhooks library. The two gold prices are real recorded answers of gold-api.com
// (2026-08-18 and 2026-09-03); the level lies between them. The rest (every failure path) is tested in process
// (tests/unit/alerts/alerts.test.ts).

const before: { price: number } = fixture('goldapi-price-XAU.json');
const after: { price: number } = fixture('goldapi-price-XAU-2026-09-03.json');
const LEVEL = Math.round((before.price + after.price) / 2);

let fake: FakeUpstream;
let app: App;
let receiver: http.Server;
let hook = '';
let received: Received[] = [];

beforeAll(async () => {
  ({ server: receiver, url: hook, received } = await startReceiver());
  fake = await FakeUpstream.start();
  // The quotes feed refuses: gold comes from gold-api.com alone, as the fixtures give it.
  fake.set('quotes', { mode: 'refuse' });
  app = await App.start({
    // The market open (the sampler samples while it is), every TTL at 1 s so each sample reads the upstream again.
    env: {
      ...fake.env(),
      ...marketClockAt(OPEN_DAY),
      SAMPLER: 'on',
      SAMPLE_INTERVAL_S: '2',
      CACHE_TTL_S: '1',
      ALERT_TARGETS_ALLOW: '127.0.0.1',
      ALERT_RETRY_SCHEDULE_S: '1,1',
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await new Promise((r) => receiver.close(r));
});

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
    // The sampler reads the first price (below the level) a few times; then the upstream answers the later one.
    await waitFor(
      async () => (await app.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number,
      (n: number) => n >= 1,
      30_000,
    );
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
});
