import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import type { Alert } from '@/lib/alerts/model';
import { alertHarness, controlledResolver, freshAddress } from '../../support/alert-harness';
import { waitFor } from '../../support/expect';

// The v1.11 edges of the price alerts (decisions §33), in process (tests/support/alert-harness.ts): nothing lost between
// a crossing and its delivery, nothing a stranger sends can tie the service up, and what ends leaves.

const h = alertHarness();
const { behaviour, create, manage, view, activeAlert, reading, events, usdFor } = h;

const TLS = path.join(__dirname, '../../support/tls');

/** An armed webhook alert written straight into the store, as one verified some time ago. */
async function storedAlert(url: string, fields: Partial<Alert> = {}, createdAt = Date.now() - 60_000): Promise<Alert> {
  const { newAlert } = h.lib.model;
  const { hashToken, newId, newSecret, saveAlert } = h.lib.records;
  const a: Alert = {
    ...newAlert(
      {
        id: newId('alrt'),
        token_hash: hashToken('t'),
        metal: 'gold',
        currency: 'USD',
        unit: 'oz',
        condition: { type: 'above', value: 1000 },
        repeat: false,
        rearm_pct: 0.5,
        target: { type: 'webhook', url },
        secret: newSecret(),
        origin: 'http://localhost',
      },
      createdAt,
    ),
    state: 'active',
    armed: true,
    armed_at: createdAt,
    ...fields,
  };
  await saveAlert(a);
  return a;
}

/** The manage URL of an alert written by storedAlert (its token is `t`). */
const manageUrl = (a: Alert) => `http://localhost/api/v1/alerts/${a.id}?token=t`;

describe('creating an alert cannot tie the service up', () => {
  it('eleven creations with names that do not resolve, from one address: ten are looked up and refused, the eleventh is a 429 with no lookup', async () => {
    process.env.ALERT_TARGETS_ALLOW = '';
    const resolver = controlledResolver(() => 'ENOTFOUND');
    const from = freshAddress();
    try {
      for (let i = 0; i < 10; i++) {
        const { res, json } = await create({ above: 10, webhook: { url: `https://nowhere-${i}.example.net/hook` } }, from);
        expect(res.status).toBe(400);
        expect(json.error).toMatch(/webhook\.url's host does not resolve \(ENOTFOUND\)/);
        // Refused, yet counted: what is left of the limit goes down with each.
        expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"alerts";r=${9 - i};t=\\d+$`));
      }
      expect(new Set(resolver.asked.map((q) => q.host)).size).toBe(10);
      const asked = resolver.asked.length;
      const { res, json } = await create({ above: 10, webhook: { url: 'https://nowhere-10.example.net/hook' } }, from);
      expect(res.status).toBe(429);
      expect(json.error).toMatch(/10 alerts created per hour/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(resolver.asked).toHaveLength(asked);
      // A body that is not even JSON counts too, before it is read.
      const other = freshAddress();
      for (let i = 0; i < 10; i++) expect((await create('not json', other)).res.status).toBe(400);
      expect((await create({ above: 10, webhook: { url: `${h.base}/x` } }, other)).res.status).toBe(429);
    } finally {
      resolver.restore();
    }
  });

  it('a name that resolves into a private range is refused at creation (a resolver the test controls), and nothing connects to it', async () => {
    process.env.ALERT_TARGETS_ALLOW = '';
    const answers: Record<string, { 4: string[] | string; 6: string[] | string }> = {
      'intranet.example.com': { 4: ['10.20.30.40'], 6: 'ENODATA' },
      'metadata.example.com': { 4: ['169.254.169.254'], 6: 'ENODATA' },
      'cgnat.example.com': { 4: ['100.64.1.2'], 6: 'ENODATA' },
      'ula.example.com': { 4: 'ENODATA', 6: ['fd12:3456::7'] },
      'mapped.example.com': { 4: 'ENODATA', 6: ['::ffff:127.0.0.1'] },
      // One public address does not make a private one acceptable: the whole answer is refused.
      'mixed.example.com': { 4: ['93.184.215.14', '127.0.0.1'], 6: 'ENODATA' },
    };
    const resolver = controlledResolver((host, family) => answers[host]?.[family] ?? 'ENOTFOUND');
    try {
      for (const [host, a] of Object.entries(answers)) {
        const { res, json } = await create({ above: 10, webhook: { url: `https://${host}:${h.trapPort}/hook` } });
        expect(res.status, host).toBe(400);
        const bad = [a[4], a[6]].flat().find((x) => x !== 'ENODATA' && x !== '93.184.215.14');
        expect(json.error, host).toBe(`webhook.url's host resolves to an address that is not public (${bad})`);
      }
      expect(resolver.asked.map((q) => q.host)).toEqual(expect.arrayContaining(Object.keys(answers)));
    } finally {
      resolver.restore();
    }
    expect(h.trapConnections).toBe(0);
  });

  it('a lookup has a deadline, its queries cancelled; at most LOOKUPS_AT_ONCE run at once, and a creation past them is a 503 with Retry-After, looked up for nothing', async () => {
    const { LOOKUPS_AT_ONCE } = h.lib.model;
    const { queryAddresses } = h.lib.targets;
    // A resolver that never answers: the deadline ends the lookup and cancels its queries.
    const cancel = vi.spyOn(dns.promises.Resolver.prototype, 'cancel');
    const silent = controlledResolver(() => new Promise<string>(() => {}));
    try {
      await expect(queryAddresses('slow.example.com', 'webhook.url', 50)).rejects.toThrow("webhook.url's host did not resolve within 0.05 s");
      expect(cancel).toHaveBeenCalled();
    } finally {
      silent.restore();
      cancel.mockRestore();
    }
    // LOOKUPS_AT_ONCE creations whose lookups wait on the test; one more finds no slot.
    process.env.ALERT_TARGETS_ALLOW = '';
    const waiting: (() => void)[] = [];
    const resolver = controlledResolver((host) =>
      host.startsWith('held-') ? new Promise<string>((r) => waiting.push(() => r('ENOTFOUND'))) : 'ENOTFOUND',
    );
    try {
      const held = Array.from({ length: LOOKUPS_AT_ONCE }, (_, i) => create({ above: 10, webhook: { url: `https://held-${i}.example.com/` } }));
      await waitFor(
        async () => waiting.length,
        (n) => n === 2 * LOOKUPS_AT_ONCE,
      );
      const { res, json } = await create({ above: 10, webhook: { url: 'https://one-more.example.com/' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(json.error).toMatch(/Too many alert targets are being checked at once/);
      expect(res.headers.get('ratelimit')).toMatch(/^"alerts";r=9;/);
      expect(resolver.asked.map((q) => q.host)).not.toContain('one-more.example.com');
      for (const answer of waiting) answer();
      for (const r of await Promise.all(held)) expect(r.res.status).toBe(400);
      // The slots are free again.
      expect((await create({ above: 10, webhook: { url: 'https://one-more.example.com/' } })).res.status).toBe(400);
    } finally {
      resolver.restore();
    }
  });

  it('a repeating move_pct whose level is not above rearm_pct is a 400 naming why; anything else is accepted', async () => {
    for (const [move, rearm] of [
      [0.5, 0.5],
      [0.3, 0.5],
      [1, 2],
    ]) {
      const { res, json } = await create({ move_pct: move, repeat: true, rearm_pct: rearm, webhook: { url: `${h.base}/move-rearm` } });
      expect(res.status, `${move}/${rearm}`).toBe(400);
      expect(json.error).toMatch(/^Invalid alert: rearm_pct: a repeating move_pct alert must have move_pct above rearm_pct/);
    }
    expect((await create({ move_pct: 0.5, repeat: true, webhook: { url: `${h.base}/move-rearm` } })).res.status).toBe(400);
    expect((await create({ move_pct: 1, repeat: true, webhook: { url: `${h.base}/move-rearm` } })).res.status).toBe(201);
    expect((await create({ move_pct: 0.3, rearm_pct: 0.5, webhook: { url: `${h.base}/move-rearm` } })).res.status).toBe(201);
  });

  it('accepts the endpoints of the four push services browsers subscribe with: Google FCM, Mozilla autopush, Apple, Microsoft WNS', async () => {
    process.env.ALERT_TARGETS_ALLOW = '';
    // Public addresses for their names (no connection is made: a push alert is active at once).
    const resolver = controlledResolver((_host, family) => (family === 4 ? ['142.250.74.106'] : 'ENODATA'));
    const keys = {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    const endpoints = [
      // Chrome, Edge on Android (Firebase Cloud Messaging), both forms it hands out.
      'https://fcm.googleapis.com/fcm/send/dZDc4NvCy2E:APA91bGx0eVQa2Bq1ypWqQk0YhCBzxUTnCPu3dkMsRKk3hWUHPQqCEzc7gX6aL5Y3cSIz0Mw1Hk',
      'https://fcm.googleapis.com/wp/dZDc4NvCy2E:APA91bGx0eVQa2Bq1ypWqQk0YhCBzxUTnCPu3dkMsRKk3hWUHPQqCEzc7gX6aL5Y3cSIz0Mw1Hk',
      // Firefox (Mozilla autopush).
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmVb2rT4s8Qx1eZK9dD3YcW8nS5pQ1fJb6LhGk2oV7mR0uE4tI9yA3zXcN',
      // Safari (Apple's web push service).
      'https://web.push.apple.com/QGuQyavXutnMH7x9pEXO0BpL4vRdK1lZJqoFmYb2C3D5e6GhIjKlMnOp',
      // Edge on Windows (Windows Push Notification Services).
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD2x7vQ%2fYkR3nJ8uQ1Zp5n0dE9fG7hT4kL2mW6sA3bC8xV1yN0',
    ];
    try {
      for (const endpoint of endpoints) {
        const { res, json } = await create({ above: 10, push: { endpoint, keys } });
        expect(res.status, `${endpoint}: ${JSON.stringify(json)}`).toBe(201);
        expect(json.status).toBe('active');
      }
      expect(new Set(resolver.asked.map((q) => q.host))).toEqual(
        new Set(['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', 'wns2-par02p.notify.windows.com']),
      );
      // The same forms on another host, or over http, are not a push service.
      for (const endpoint of [
        'https://fcm.googleapis.com.evil.example/fcm/send/x',
        'http://web.push.apple.com/QGu',
        'https://push.apple.com.example/x',
      ]) {
        expect((await create({ above: 10, push: { endpoint, keys } })).res.status, endpoint).toBe(400);
      }
    } finally {
      resolver.restore();
    }
  });
});

describe('deliveries', () => {
  it('go over https to a name checked at creation and again at the connection; a certificate no one trusts is not delivered to, and retried', async () => {
    const cert = fs.readFileSync(path.join(TLS, 'hooks-test.cert.pem'));
    const got: { url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
    const server = https.createServer({ key: fs.readFileSync(path.join(TLS, 'hooks-test.key.pem')), cert }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ url: req.url, headers: req.headers, body });
        const json = JSON.parse(body);
        res.writeHead(200).end(json.type === 'alert.verification' ? JSON.stringify({ challenge: json.data.challenge }) : 'ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    // hooks.test resolves (for this test) to the receiver's loopback address, which ALERT_TARGETS_ALLOW permits; the name
    // itself is not listed, so only https is accepted.
    const resolver = controlledResolver((host, family) => (host === 'hooks.test' && family === 4 ? ['127.0.0.1'] : 'ENODATA'));
    // The delivery trusts the test's certificate, as it would a public CA's.
    const request = https.request;
    const trusting = vi
      .spyOn(https, 'request')
      .mockImplementation(((url: URL, opts: https.RequestOptions) => request(url, { ...opts, ca: cert })) as typeof https.request);
    try {
      expect((await create({ above: 10, webhook: { url: `http://hooks.test:${port}/tls` } })).res.status).toBe(400);
      const { res, json } = await create({
        metal: 'gold',
        currency: 'EUR',
        unit: 'gram',
        above: 130,
        webhook: { url: `https://hooks.test:${port}/tls` },
      });
      expect(res.status, JSON.stringify(json)).toBe(201);
      await waitFor(
        () => view(json.manage_url),
        (v) => v.status === 'active',
      );
      await reading(await usdFor(129));
      await reading(await usdFor(131));
      const event = got.find((g) => JSON.parse(g.body).type === 'alert.triggered')!;
      expect(event.url).toBe('/tls');
      expect(() => new Webhook(json.secret).verify(event.body, event.headers as Record<string, string>)).not.toThrow();
      expect(JSON.parse(event.body).data).toMatchObject({ alert_id: json.id, price: 131 });
      expect(resolver.asked.filter((q) => q.host === 'hooks.test').length).toBeGreaterThanOrEqual(4);

      // Without the certificate trusted: no answer counts, the verification is retried, and never proved.
      trusting.mockRestore();
      const before = got.length;
      const untrusted = await create({ above: 10, webhook: { url: `https://hooks.test:${port}/untrusted` } });
      await h.lib.deliver.kick();
      const v = await view(untrusted.json.manage_url);
      expect(v.status).toBe('pending');
      expect(v.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual(['failed', 'retrying', 'retrying', 'retrying']);
      expect(v.deliveries[0].error).toMatch(/SELF_SIGNED_CERT/);
      expect(got.length).toBe(before);
    } finally {
      trusting.mockRestore();
      resolver.restore();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('are retried after a 429 and after a network error, with the same webhook-id, and delivered', async () => {
    behaviour.set('/busy', (n) => ({ status: n === 2 ? 429 : 200 }));
    behaviour.set('/cut', (n) => (n === 2 ? 'reset' : { status: 200 }));
    const busy = await activeAlert('/busy', { above: 140 });
    const cut = await activeAlert('/cut', { above: 140 });
    await reading(await usdFor(139));
    await reading(await usdFor(141));
    for (const [a, hook, first] of [
      [busy, '/busy', 429],
      [cut, '/cut', null],
    ] as const) {
      const tries = events(hook);
      expect(tries, hook).toHaveLength(2);
      expect(tries[0].headers['webhook-id']).toBe(tries[1].headers['webhook-id']);
      const v = await view(a.manage_url);
      expect(v.deliveries.slice(0, 2).map((d: { http_status: number | null; outcome: string }) => [d.http_status, d.outcome])).toEqual([
        [200, 'delivered'],
        [first, 'retrying'],
      ]);
      expect(v).toMatchObject({ status: 'fired', delivered_count: 1 });
    }
    expect((await view(cut.manage_url)).deliveries[1].error).toMatch(/^network error: (ECONNRESET|socket hang up)/);
  });

  it('sixty due at once, one target hanging: at most DELIVERIES_AT_ONCE go at once, DELIVERIES_PER_HOST per webhook host, one per target; the other fifty-nine arrive while it hangs', async () => {
    const { DELIVERIES_AT_ONCE, DELIVERIES_PER_HOST } = h.lib.model;
    const { deliveriesUnderWay } = h.lib.deliver;
    process.env.ALERT_TARGETS_ALLOW = '127.0.0.0/8';
    // The hanging target holds its request until the end, far past any load's delay (its timeout, 60 s, never comes).
    process.env.ALERT_TIMEOUT_MS = '60000';
    // Six hosts (127.0.0.1 to .6), ten target URLs each. Until `flowing`, every request is held unanswered.
    let flowing = false;
    const held: { url: string; res: http.ServerResponse }[] = [];
    const open = new Map<string, number>();
    const arrived: string[] = [];
    const servers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (k) => {
        const server = http.createServer((req, res) => {
          const url = `127.0.0.${k}${req.url}`;
          open.set(url, (open.get(url) ?? 0) + 1);
          res.on('close', () => open.set(url, open.get(url)! - 1));
          req.resume();
          req.on('end', () => {
            arrived.push(url);
            if (flowing && req.url !== '/hang') res.writeHead(200).end('ok');
            else held.push({ url, res });
          });
        });
        await new Promise<void>((r) => server.listen(0, `127.0.0.${k}`, r));
        return { k, server, port: (server.address() as net.AddressInfo).port };
      }),
    );
    const openAt = (prefix: string) => [...open].filter(([u]) => u.startsWith(prefix)).reduce((n, [, m]) => n + m, 0);
    try {
      const level = 4500;
      const alerts: Alert[] = [];
      for (const { k, port } of servers) {
        for (let i = 0; i < 10; i++) {
          // The hanging target's level is the lowest: a reading crosses it alone first.
          const hang = k === 1 && i === 0;
          const value = hang ? level : level + k + i / 10;
          alerts.push(await storedAlert(`http://127.0.0.${k}:${port}${hang ? '/hang' : `/t${i}`}`, { condition: { type: 'above', value } }));
        }
      }
      // A reading below every level, one that crosses the hanging target's alone (its request hangs), then one above
      // them all: fifty-nine events due at once while one target hangs.
      await h.lib.evaluate.observe('gold', h.served(level - 100));
      await h.lib.evaluate.observe('gold', h.served(level + 0.5));
      await waitFor(
        async () => arrived,
        (a) => a.length === 1 && a[0] === '127.0.0.1/hang',
      );
      void h.lib.evaluate.observe('gold', h.served(level + 100));
      // A pump starts what it may in one pass, before any request can arrive: once the requests stop at the bound, all it
      // started have arrived.
      await waitFor(
        async () => arrived.length,
        (n) => n >= DELIVERIES_AT_ONCE,
      );
      expect(deliveriesUnderWay()).toBe(DELIVERIES_AT_ONCE);
      expect(arrived).toHaveLength(DELIVERIES_AT_ONCE);
      for (const k of [1, 2, 3, 4, 5, 6]) expect(openAt(`127.0.0.${k}/`)).toBeLessThanOrEqual(DELIVERIES_PER_HOST);
      expect(Math.max(...open.values())).toBe(1);
      // Then every target answers at once but the one that hangs.
      flowing = true;
      for (const x of held.filter((x) => !x.url.endsWith('/hang'))) x.res.writeHead(200).end('ok');
      held.splice(0, held.length, ...held.filter((x) => x.url.endsWith('/hang')));
      await waitFor(
        async () => arrived.filter((u) => !u.endsWith('/hang')).length,
        (n) => n === 59,
      );
      // The hanging request is still open, unanswered: the others did not wait for it.
      expect(held.map((x) => x.url)).toEqual([`127.0.0.1/hang`]);
      expect(openAt('127.0.0.1/hang')).toBe(1);
      const hangAlert = alerts[0];
      expect((await h.lib.records.loadAlert(hangAlert.id))!.deliveries).toEqual([]);
      held[0].res.writeHead(200).end('ok');
      await h.lib.deliver.kick();
      expect((await h.lib.records.loadAlert(hangAlert.id))!.deliveries[0]).toMatchObject({ http_status: 200, outcome: 'delivered' });
      // Each delivered once.
      expect(arrived).toHaveLength(60);
      expect(new Set(arrived).size).toBe(60);
    } finally {
      delete process.env.ALERT_TIMEOUT_MS;
      for (const { server } of servers) {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    }
  });

  it('pushes to the push services are not held to DELIVERIES_PER_HOST: their endpoints go one at a time each, within the pool', async () => {
    const { DELIVERIES_PER_HOST } = h.lib.model;
    const n = DELIVERIES_PER_HOST + 2;
    const keys = {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    // n browsers on one push service (the local one), every push held unanswered.
    for (let i = 0; i < n; i++) {
      h.pushAnswer.set(`/push/many-${i}`, 0);
      expect((await create({ currency: 'EUR', unit: 'gram', above: 190, push: { endpoint: `${h.base}/push/many-${i}`, keys } })).res.status).toBe(
        201,
      );
    }
    await reading(await usdFor(189));
    void h.lib.evaluate.observe('gold', h.served(await usdFor(191)));
    await waitFor(
      async () => h.pushes.filter((p) => p.path.startsWith('/push/many-')).length,
      (k) => k === n,
    );
    expect(h.lib.deliver.deliveriesUnderWay()).toBe(n);
    h.release();
    await h.lib.deliver.kick();
  });

  it('a delivery claimed by an instance that died is held back only until its claim expires', async () => {
    const a = await storedAlert(`${h.base}/orphan`);
    const event = h.lib.deliver.outboxEvent(a, 'alert.triggered', { alert_id: a.id });
    await h.lib.records.updateAlert(a.id, (x) => void (x.outbox = [event]));
    // The dead instance's claim on the attempt, with a short life.
    expect(await h.lib.store.getStore().claim(`alerts:send:${event.id}:0`, 1)).toBe(true);
    await h.lib.deliver.kick();
    expect(events('/orphan')).toHaveLength(0);
    const [got] = await waitFor(
      async () => events('/orphan'),
      (e) => e.length > 0,
    );
    expect(got.headers['webhook-id']).toBe(event.id);
    await h.lib.deliver.kick();
    expect(events('/orphan')).toHaveLength(1);
  });

  it('the deliveries v1.10 left queued in their own collection move into the outboxes and are delivered, keeping their webhook-id', async () => {
    const a = await storedAlert(`${h.base}/legacy`);
    const body = JSON.stringify({ type: 'alert.triggered', timestamp: new Date().toISOString(), data: { alert_id: a.id } });
    const store = h.lib.store.getStore();
    await store.putDoc(h.lib.model.LEGACY_JOBS, 'msg_legacy1', {
      id: 'msg_legacy1',
      alert_id: a.id,
      type: 'alert.triggered',
      body,
      attempt: 1,
      due: Date.now() - 1000,
    });
    await h.lib.deliver.adoptLegacyJobs();
    await h.lib.deliver.kick();
    expect(events('/legacy').map((e) => [e.headers['webhook-id'], e.body])).toEqual([['msg_legacy1', body]]);
    expect((await store.docs(h.lib.model.LEGACY_JOBS)).docs).toEqual([]);
    expect((await h.lib.records.loadAlert(a.id))!.deliveries[0]).toMatchObject({ webhook_id: 'msg_legacy1', attempt: 2, outcome: 'delivered' });
  });
});

describe('alerts lose nothing', () => {
  it('a crash right after the fired mark is written: the event was written with it, and is delivered once', async () => {
    const a = await activeAlert('/outbox', { above: 150 });
    await reading(await usdFor(149));
    const store = h.lib.store.getStore();
    const write = store.putDocIf.bind(store);
    let died = false;
    const cas = vi.spyOn(store, 'putDocIf').mockImplementation(async (coll, id, value, rev) => {
      const written = await write(coll, id, value, rev);
      if (!died && id === a.id && (value as Alert).fired_count === 1) {
        // The write went through; whatever would have come after it never runs.
        died = true;
        throw new Error('the process died here');
      }
      return written;
    });
    try {
      await reading(await usdFor(151));
    } finally {
      cas.mockRestore();
    }
    expect(died).toBe(true);
    await h.lib.deliver.kick();
    const [event] = events('/outbox');
    expect(event?.json.data).toMatchObject({ alert_id: a.id, price: 151 });
    // The next readings find the crossing again (the one that crossed was not kept as the previous): no second event.
    await reading(await usdFor(152));
    expect(events('/outbox')).toHaveLength(1);
    expect(await view(a.manage_url)).toMatchObject({ status: 'fired', fired_count: 1, delivered_count: 1 });
  });

  it('a store error on the fire’s write writes neither the mark nor the event; the next reading fires it, once', async () => {
    const a = await activeAlert('/store-error', { above: 160 });
    await reading(await usdFor(159));
    const store = h.lib.store.getStore();
    const write = store.putDocIf.bind(store);
    let failed = 0;
    const cas = vi.spyOn(store, 'putDocIf').mockImplementation(async (coll, id, value, rev) => {
      if (id === a.id && (value as Alert).fired_count === 1 && failed++ === 0) throw new Error('store unavailable');
      return write(coll, id, value, rev);
    });
    try {
      await reading(await usdFor(161));
      expect(failed).toBe(1);
      expect(events('/store-error')).toHaveLength(0);
      expect(await view(a.manage_url)).toMatchObject({ status: 'active', fired_count: 0 });
      // Still above the level: the crossing from the last reading kept (below) to this one.
      await reading(await usdFor(162));
    } finally {
      cas.mockRestore();
    }
    expect(events('/store-error')).toHaveLength(1);
    expect(events('/store-error')[0].json.data).toMatchObject({ price: 162, previous: 159 });
  });

  it('fires only on a crossing between two readings taken after it was armed; the same price read again after arming counts as one', async () => {
    // The readings' own timeline (tests/support/alert-harness.ts): a reading below the level, the alert armed after it.
    await reading(await usdFor(169));
    const late = await storedAlert(`${h.base}/armed-late`, {
      currency: 'EUR',
      unit: 'gram',
      condition: { type: 'above', value: 170 },
      armed_at: h.clock + 30_000,
    });
    await reading(await usdFor(171));
    expect(events('/armed-late')).toHaveLength(0);
    // Back below and up again, both readings taken after it was armed: that crossing fires.
    await reading(await usdFor(169));
    await reading(await usdFor(171));
    expect(events('/armed-late').map((e) => e.json.data.alert_id)).toEqual([late.id]);

    // A price taken before arming, then read again after it (the upstream has nothing newer): that reading is a previous one.
    const at = (h.clock += 60_000);
    await h.lib.evaluate.observe('gold', h.served(await usdFor(179), 'fresh', at));
    await storedAlert(`${h.base}/read-again`, { currency: 'EUR', unit: 'gram', condition: { type: 'above', value: 180 }, armed_at: at + 30_000 });
    await h.lib.evaluate.observe('gold', h.served(await usdFor(179), 'fresh', at, (h.clock += 60_000)));
    await reading(await usdFor(181));
    expect(events('/read-again')).toHaveLength(1);
  });
});

describe('what ends, leaves', () => {
  it('expired and never-verified alerts leave the counts and their target’s limit at once, and the store some hours later', async () => {
    const { ENDED_KEPT_MS, ALERTS_PER_TARGET } = h.lib.model;
    const hour = 3_600_000;
    const day = 24 * hour;
    const before = await h.lib.evaluate.alertCounts();
    const url = `${h.base}/ended`;
    const ended = {
      // Never verified: 25 h and 31 h after creation (past its 24 h, and past that by more than ENDED_KEPT_MS).
      pending: await storedAlert(url, { state: 'pending', armed: false, armed_at: null }, Date.now() - 25 * hour),
      pendingLong: await storedAlert(url, { state: 'pending', armed: false, armed_at: null }, Date.now() - day - ENDED_KEPT_MS - hour),
      // Armed, past its 90 days: by an hour, and by more than ENDED_KEPT_MS.
      expired: await storedAlert(url, {}, Date.now() - 90 * day - hour),
      expiredLong: await storedAlert(url, {}, Date.now() - 90 * day - ENDED_KEPT_MS - hour),
    };
    // A target that holds as many ended alerts as its limit allows live ones.
    const crowded = `${h.base}/ended-crowded`;
    for (let i = 0; i < ALERTS_PER_TARGET; i++)
      await storedAlert(crowded, { state: 'pending', armed: false, armed_at: null }, Date.now() - 25 * hour);
    const after = await h.lib.evaluate.alertCounts();
    expect([after.armed, after.pending, after.failing]).toEqual([before.armed, before.pending, before.failing]);
    const idx = (await h.lib.index.alertIndex())!;
    expect(h.lib.index.liveOnTarget(idx, url)).toBe(0);
    expect((await create({ above: 10, webhook: { url: crowded } })).res.status).toBe(201);
    // The store: the long-ended ones leave; the others say `expired` on their manage URL until they do.
    for (const a of [ended.pendingLong, ended.expiredLong]) {
      await waitFor(
        () => h.lib.records.loadAlert(a.id),
        (x) => x === null,
      );
      expect((await manage(manageUrl(a))).status).toBe(404);
    }
    for (const a of [ended.pending, ended.expired]) expect((await view(manageUrl(a))).status).toBe('expired');
  });

  it('an alert whose time runs out while held leaves the counts at that moment, without any write', async () => {
    // Nothing else under way (a verification would change the counts).
    await h.lib.deliver.kick();
    const held = await storedAlert(`${h.base}/runs-out`, { state: 'pending', armed: false, armed_at: null, pending_until: Date.now() + 1500 });
    const with_ = await h.lib.evaluate.alertCounts();
    const idx = (await h.lib.index.alertIndex())!;
    expect(h.lib.index.liveOnTarget(idx, `${h.base}/runs-out`)).toBe(1);
    await waitFor(
      () => h.lib.evaluate.alertCounts(),
      (c) => c.pending === with_.pending - 1,
    );
    expect(h.lib.index.liveOnTarget((await h.lib.index.alertIndex())!, `${h.base}/runs-out`)).toBe(0);
    expect((await view(manageUrl(held))).status).toBe('expired');
  });
});

describe('ALERTS=off', () => {
  it('the price pages offer no alert: no form, and no alerts script; the API answers 503 as before', async () => {
    const { canonicalPage } = await import('@/site/price-route');
    const { PricePage } = await import('@/site/price-page');
    async function render() {
      const headers: Record<string, string> = {};
      const ctx = {
        params: { metal: 'gold', currency: 'eur', unit: 'gram' },
        query: {},
        resolvedUrl: '/gold/eur/gram',
        req: { headers: { host: 'localhost' }, url: '/gold/eur/gram' },
        res: { statusCode: 200, setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v), end() {} },
      };
      const result = (await canonicalPage(ctx as never)) as { props: Parameters<typeof PricePage>[0] };
      const html = renderToStaticMarkup(createElement(PricePage, result.props));
      // What the page shows, without the words its script is handed (JSON in #pp-config).
      return { html: html.replace(/<script type="application\/json" id="pp-config">.*?<\/script>/s, ''), etag: headers.etag };
    }
    const on = await render();
    expect(on.html).toContain('id="notify"');
    expect(on.html).toContain('id="notify-form"');
    expect(on.html).toContain('Notify me');
    process.env.ALERTS = 'off';
    const off = await render();
    // The page's script loads the alerts script only for the #notify section (site/scripts/price-page.ts).
    expect(off.html).not.toContain('id="notify"');
    expect(off.html).not.toContain('notify-form');
    expect(off.html).not.toContain('Notify me');
    expect(off.etag).not.toBe(on.etag);
    const { res } = await create({ above: 10, webhook: { url: `${h.base}/off` } });
    expect(res.status).toBe(503);
  });
});

describe('once per process', () => {
  it('the index and the delivery pump are one per process, whichever copy of the modules holds them (Next bundles instrumentation apart from the routes)', async () => {
    behaviour.set('/one-pump', () => 'hang');
    const a = await storedAlert(`${h.base}/one-pump`);
    await h.lib.records.updateAlert(a.id, (x) => void (x.outbox = [h.lib.deliver.outboxEvent(x, 'alert.triggered', { alert_id: a.id })]));
    vi.resetModules();
    const other = { index: await import('@/lib/alerts/alert-index'), deliver: await import('@/lib/alerts/deliver') };
    expect(other.index).not.toBe(h.lib.index);
    expect(await other.index.alertIndex()).toBe(await h.lib.index.alertIndex());
    const idle = h.lib.deliver.kick();
    await waitFor(
      async () => events('/one-pump').length,
      (n) => n === 1,
    );
    expect(other.deliver.deliveriesUnderWay()).toBe(1);
    void other.deliver.kick();
    h.release();
    await idle;
    expect(other.deliver.deliveriesUnderWay()).toBe(0);
    expect(events('/one-pump')).toHaveLength(1);
  });
});
