import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@/lib/alerts/model';
import { afterNextRead } from '../../support/after-read';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// The price alerts' records on KV (a real redis-server behind the Upstash REST bridge), in this process: every update
// of an alert is a compare-and-set on its revision (lib/alerts/records.ts), so a delivery that finishes after the
// manage URL's DELETE brings nothing back, two writers at once both take effect, and the deliveries an alert lists stay
// bounded. tests/unit/alerts/alerts.test.ts shows the same on the embedded store, through the API.

let redis: RedisServer;
let bridge: UpstashBridge;
let receiver: http.Server;
let hook = '';
/** What the receiver does when a delivery arrives, before it answers. */
let onDelivery: () => void = () => {};
let deliveries = 0;
let lib: {
  records: typeof import('@/lib/alerts/records');
  model: typeof import('@/lib/alerts/model');
  deliver: typeof import('@/lib/alerts/deliver');
  store: typeof import('@/lib/store');
};

beforeAll(async () => {
  redis = await RedisServer.start();
  bridge = await UpstashBridge.start(redis.url);
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      onDelivery();
      // Asks for a retry: a delivery that would write the alert back and queue another attempt.
      res.writeHead(503).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
  Object.assign(process.env, bridge.env(), { KV_TIMEOUT_MS: '5000', ALERT_TARGETS_ALLOW: '127.0.0.1', ALERT_RETRY_SCHEDULE_S: '0,0' });
  lib = {
    records: await import('@/lib/alerts/records'),
    model: await import('@/lib/alerts/model'),
    deliver: await import('@/lib/alerts/deliver'),
    store: await import('@/lib/store'),
  };
  expect(lib.store.getStore().kind).toBe('kv');
});

afterAll(async () => {
  await new Promise((r) => receiver?.close(r));
  await bridge?.close();
  await redis?.stop();
});

/** A verified, armed webhook alert kept in the store. */
async function stored(): Promise<Alert> {
  const { newAlert } = lib.model;
  const { newId, hashToken, newToken, newSecret, saveAlert } = lib.records;
  const fields = {
    id: newId('alrt'),
    token_hash: hashToken(newToken()),
    metal: 'gold' as const,
    currency: 'EUR',
    unit: 'gram' as const,
    condition: { type: 'above' as const, value: 140 },
    repeat: false,
    rearm_pct: 0.5,
    target: { type: 'webhook' as const, url: hook },
    secret: newSecret(),
    origin: 'http://localhost',
  };
  const a = { ...newAlert(fields, Date.now()), state: 'active' as const, armed: true };
  await saveAlert(a);
  return a;
}

describe('alert records on KV', () => {
  it('a delete between a delivery’s read of the alert and its write leaves the alert deleted, and nothing is retried (its outbox went with it)', async () => {
    const a = await stored();
    const store = lib.store.getStore();
    let restore = () => {};
    onDelivery = () => {
      restore = afterNextRead(store, lib.model.ALERTS, a.id, () => lib.records.removeAlert(a.id));
    };
    try {
      await lib.records.updateAlert(a.id, (x) => void x.outbox!.push(lib.deliver.outboxEvent(x, 'alert.triggered', { alert_id: a.id })));
      await lib.deliver.kick();
    } finally {
      restore();
      onDelivery = () => {};
    }
    expect(deliveries).toBe(1);
    expect(await lib.records.loadAlert(a.id)).toBeNull();
    expect((await store.docs<Alert>(lib.model.ALERTS)).docs.map((x) => x.id)).not.toContain(a.id);
    await lib.deliver.kick();
    expect(deliveries).toBe(1);
  });

  it('two writers at once both take effect; eight at once lose none', async () => {
    const a = await stored();
    const { updateAlert } = lib.records;
    await Promise.all([
      updateAlert(a.id, (x) => {
        x.fired_count += 1;
      }),
      updateAlert(a.id, (x) => {
        x.delivered_count += 1;
      }),
    ]);
    expect(await lib.records.loadAlert(a.id)).toMatchObject({ fired_count: 1, delivered_count: 1 });
    await Promise.all(
      Array.from({ length: 8 }, () =>
        updateAlert(a.id, (x) => {
          x.fired_count += 1;
        }),
      ),
    );
    expect((await lib.records.loadAlert(a.id))!.fired_count).toBe(9);
  });

  it('keeps the latest 10 deliveries of an alert, newest first', async () => {
    const a = await stored();
    const { KEPT_DELIVERIES } = lib.model;
    for (let i = 0; i < KEPT_DELIVERIES + 5; i++) {
      await lib.records.updateAlert(a.id, (x) =>
        lib.records.noteDelivery(x, {
          at: new Date().toISOString(),
          type: 'alert.triggered',
          webhook_id: `msg_${i}`,
          attempt: 1,
          http_status: 200,
          outcome: 'delivered',
        }),
      );
    }
    const kept = (await lib.records.loadAlert(a.id))!.deliveries;
    expect(kept.map((d) => d.webhook_id)).toEqual(Array.from({ length: KEPT_DELIVERIES }, (_, i) => `msg_${KEPT_DELIVERIES + 4 - i}`));
  });
});
