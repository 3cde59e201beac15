import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertCreated } from '@/lib/schemas/alerts';
import { startReceiver, type Received } from '../../support/alert-receiver';
import { App } from '../../support/app';
import { waitFor } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// Two `npm start` instances on one KV (a real redis-server behind the Upstash REST bridge), both sampling gold
// every 2 s: an alert created on one is verified once and its crossing delivered once, whichever instance read
// the crossing price first (decisions §28: a claim in the store per reading and per crossing).

const before: { price: number } = fixture('goldapi-price-XAU.json');
const LEVEL = Math.round((before.price + fixture<{ price: number }>('goldapi-price-XAU-2026-09-03.json').price) / 2);

let redis: RedisServer;
let bridge: UpstashBridge;
let fake: FakeUpstream;
let apps: App[] = [];
let receiver: http.Server;
let hook = '';
let received: Received[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  bridge = await UpstashBridge.start(redis.url);
  ({ server: receiver, url: hook, received } = await startReceiver());
  fake = await FakeUpstream.start();
  fake.set('quotes', { mode: 'refuse' });
  const env = {
    ...fake.env(),
    ...bridge.env(),
    KV_TIMEOUT_MS: '5000',
    ...marketClockAt(OPEN_DAY),
    SAMPLER: 'on',
    SAMPLE_INTERVAL_S: '2',
    CACHE_TTL_S: '1',
    ALERT_TARGETS_ALLOW: '127.0.0.1',
  };
  apps = await Promise.all([App.start({ env }), App.start({ env })]);
});

afterAll(async () => {
  for (const app of apps) await app.stop();
  await fake?.close();
  await new Promise((r) => receiver.close(r));
  await bridge?.close();
  await redis?.stop();
});

describe('two instances on one KV', () => {
  it('verify an alert once and deliver its crossing once', async () => {
    const [a, b] = apps;
    const res = await a.get('/api/v1/alerts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'USD', unit: 'oz', above: LEVEL, webhook: { url: hook } }),
    });
    expect(res.status).toBe(201);
    const created = AlertCreated.parse(await res.json());
    const manage = new URL(created.manage_url);
    const path = manage.pathname + manage.search;
    // The other instance shows the same alert, from KV.
    await waitFor(
      async () => (await b.json(path)).body.status,
      (s) => s === 'active',
      30_000,
    );
    // Both have sampled the first price; then the upstream answers the later one, above the level.
    await waitFor(
      async () => (await b.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number,
      (n) => n >= 2,
      30_000,
    );
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    await waitFor(
      async () => received.filter((r) => r.json.type === 'alert.triggered').length,
      (n) => n > 0,
      30_000,
    );
    // Both instances go on reading the new price for a few more samples: nothing more is sent.
    const n = (await a.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number;
    await waitFor(
      async () => (await a.json('/api/v1/intraday?symbol=xau&hours=1')).body.count as number,
      (m) => m >= n + 3,
      30_000,
    );
    await Promise.all(apps.map((app) => app.json('/api/v1/spot?compact=1')));
    expect(received.filter((r) => r.json.type === 'alert.verification')).toHaveLength(1);
    const triggered = received.filter((r) => r.json.type === 'alert.triggered');
    expect(triggered).toHaveLength(1);
    expect(() => new Webhook(created.secret!).verify(triggered[0].body, triggered[0].headers as Record<string, string>)).not.toThrow();
    expect(triggered[0].json.data).toMatchObject({ alert_id: created.id, previous: before.price });
    for (const app of apps) expect((await app.json('/api/v1/status')).body.alerts).toMatchObject({ fired: 1, delivered: 1 });
  });
});
