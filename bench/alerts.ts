// The alerts section (decisions §28): what one fresh reading of gold costs the evaluation with 100,000 alerts
// armed and none crossed (target under 5 ms), in process on the embedded store, with the FX table from the fake
// upstream. The alerts are spread over 40 currency/unit groups with levels far from the readings; the first
// reading reads them all and sorts them (once per process, timed apart); a change is then read alone.
// Then 1,000 more alerts, webhooks to a local receiver, all crossed by one reading among the 100,000 still armed: the
// reading's own path (each crossing claimed, its alert written, its delivery queued; the deliveries are not awaited
// on it), and the time from the reading until the receiver has all 1,000 events, and until every outcome is written.
// The same 1,000 once more on KV (redis-server behind the Upstash REST bridge, each answer a few ms late), where every
// store call is a network round trip.
// Then deliveries per second with one target hanging (decisions §33): 1,000 alerts on 1,000 target URLs over eight local
// hosts, one of whose targets never answers, all crossed by one reading; the time until the other 999 have arrived
// (each delivery at most DELIVERIES_AT_ONCE at once per process, DELIVERIES_PER_HOST per host, one per target).
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Unit } from '../lib/reference/units';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';

const ARMED = 100_000;
const READINGS = 200;
const CROSSING = 1_000;
/** How late each KV answer comes during the crossing on KV: a store a few milliseconds away, as a hosted one is. */
const KV_DELAY_MS = 5;
const STORE_SLOT = Symbol.for('goldapi.store');

/** A fresh reading of gold as the sampler hands it to the evaluation. */
export function served(usd: number, at: number) {
  return {
    reading: { status: 'fresh' as const, value: usd, asOf: at, source: 'upstream' as const, fetchedAt: at },
    source: 'gold-api.com',
    sources: [],
    crossCheck: { status: 'single' as const, difference_pct: null },
    quote: null,
  };
}

/** The first reading of gold (it reads every alert) and READINGS more, none crossing: their times, ms. */
export async function timedReadings(clock: { at: number }): Promise<{ first: number; mean: number; p: (q: number) => number }> {
  const { observe } = await import('../lib/alerts/evaluate');
  const t1 = performance.now();
  await observe('gold', served(4000, (clock.at += 1000)));
  const first = performance.now() - t1;
  const times: number[] = [];
  for (let i = 0; i < READINGS; i++) {
    const t = performance.now();
    await observe('gold', served(4000 + (i % 2 ? 25 : -25), (clock.at += 1000)));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((n, x) => n + x, 0) / times.length;
  return { first, mean, p: (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] };
}

/**
 * One of the benchmark's alerts on gold, `condition` in `place`'s currency and unit (USD per troy ounce unless said),
 * delivered to `url`: as kept once its target answered the verification, active and armed from `now`.
 */
export async function armedAlert(
  id: string,
  condition: { type: 'above' | 'below'; value: number },
  url: string,
  now: number,
  place: { currency?: string; unit?: Unit } = {},
) {
  const { newAlert } = await import('../lib/alerts/model');
  const alert = newAlert(
    {
      id,
      token_hash: '00',
      metal: 'gold',
      currency: place.currency ?? 'USD',
      unit: place.unit ?? 'oz',
      condition,
      repeat: false,
      rearm_pct: 0.5,
      target: { type: 'webhook', url },
      secret: 'whsec_AAAA',
      origin: 'https://bench.example',
    },
    now,
  );
  return { ...alert, state: 'active' as const, armed: true, armed_at: now, pending_until: now };
}

/**
 * Writes CROSSING webhook alerts to a local receiver (answering 200 at once) in the store in use, reads them into the
 * index with a reading below their levels, then times one reading crossing them all: its own path, and the time until
 * the receiver holds every event and every outcome is written on its alert. `clock.at` is the readings' time (ms).
 */
export async function crossing(clock: { at: number }, where: string, beforeCrossing: () => void = () => {}): Promise<void> {
  const { getStore } = await import('../lib/store');
  const { ALERTS } = await import('../lib/alerts/model');
  const { observe } = await import('../lib/alerts/evaluate');
  const { COUNTS_KEY, kick } = await import('../lib/alerts/deliver');
  const store = getStore();
  let received = 0;
  let allReceived: () => void = () => {};
  const receivedAll = new Promise<void>((r) => (allReceived = r));
  let lastAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (++received === CROSSING) {
        lastAt = performance.now();
        allReceived();
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  process.env.ALERT_TARGETS_ALLOW = '127.0.0.1';
  try {
    const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
    const now = Date.now();
    for (let i = 0; i < CROSSING; i++) {
      const id = `alrt_cross${i}`;
      // Levels between the two readings below (USD per troy ounce, as spot serves gold in USD/oz).
      await store.putDoc(ALERTS, id, await armedAlert(id, { type: 'above', value: 4100 + i / 10 }, `${hook}/${i}`, now));
    }
    // A reading below every level: reads the 1,000 new alerts into the index (timed apart).
    const t3 = performance.now();
    await observe('gold', served(4000, (clock.at += 1000)));
    const readNew = performance.now() - t3;
    const firedBefore = (await store.counts([COUNTS_KEY]))[0].fired ?? 0;
    beforeCrossing();
    const t4 = performance.now();
    await observe('gold', served(4300, (clock.at += 1000)));
    const crossingPath = performance.now() - t4;
    // The events the reading fired, each queued for delivery before the reading returned.
    const queued = ((await store.counts([COUNTS_KEY]))[0].fired ?? 0) - firedBefore;
    await receivedAll;
    const toReceiver = lastAt - t4;
    // Every outcome written: every outbox empty (each event goes once its delivery is recorded on its alert).
    const waiting = async () =>
      (await store.docs<{ id: string; outbox?: unknown[] }>(ALERTS)).docs.some((a) => a.id.startsWith('alrt_cross') && (a.outbox?.length ?? 0) > 0);
    while (await waiting()) await kick();
    const toRecorded = performance.now() - t4;
    const fired = (await store.docs<{ id: string; fired_count: number; delivered_count: number }>(ALERTS)).docs.filter((a) =>
      a.id.startsWith('alrt_cross'),
    );
    console.log(`\n| alerts: one reading crossing ${CROSSING.toLocaleString('en')} alerts, ${where} | ms |`);
    console.log('|---|---|');
    console.log(`| the reading before, reading the ${CROSSING.toLocaleString('en')} new alerts into the index | ${readNew.toFixed(1)} |`);
    console.log(`| the crossing reading's own path (${queued} deliveries queued, none awaited) | ${crossingPath.toFixed(0)} |`);
    console.log(`| from the reading to the receiver holding all ${CROSSING.toLocaleString('en')} events | ${toReceiver.toFixed(0)} |`);
    console.log(`| from the reading to every outcome written on its alert | ${toRecorded.toFixed(0)} |`);
    console.log(
      `\nfired ${fired.filter((a) => a.fired_count === 1).length}, recorded as delivered ${fired.filter((a) => a.delivered_count === 1).length}, received ${received}`,
    );
  } finally {
    await new Promise((r) => receiver.close(r));
  }
}

/** Deliveries per second to 1,000 targets over eight hosts while one target hangs (embedded store). */
async function oneTargetHanging(clock: { at: number }): Promise<void> {
  const { getStore } = await import('../lib/store');
  const { ALERTS, DELIVERIES_AT_ONCE, DELIVERIES_PER_HOST } = await import('../lib/alerts/model');
  const { observe } = await import('../lib/alerts/evaluate');
  const { kick } = await import('../lib/alerts/deliver');
  const store = getStore();
  const HOSTS = 8;
  let received = 0;
  let allReceived: () => void = () => {};
  const receivedAll = new Promise<void>((r) => (allReceived = r));
  let lastAt = 0;
  let hanging: http.ServerResponse | null = null;
  const listening: http.Server[] = [];
  const servers = await Promise.all(
    Array.from({ length: HOSTS }, async (_, k) => {
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          if (req.url === '/hang') return void (hanging = res);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          if (++received === CROSSING - 1) {
            lastAt = performance.now();
            allReceived();
          }
        });
      });
      listening.push(server);
      await new Promise<void>((r) => server.listen(0, `127.0.0.${k + 1}`, r));
      return `http://127.0.0.${k + 1}:${(server.address() as net.AddressInfo).port}`;
    }),
  );
  process.env.ALERT_TARGETS_ALLOW = '127.0.0.0/8';
  try {
    const now = Date.now();
    for (let i = 0; i < CROSSING; i++) {
      const id = `alrt_hang${i}`;
      const url = `${servers[i % HOSTS]}/${i === 0 ? 'hang' : i}`;
      await store.putDoc(ALERTS, id, await armedAlert(id, { type: 'above', value: 5100 + i / 10 }, url, now));
    }
    await observe('gold', served(5000, (clock.at += 1000)));
    const t0 = performance.now();
    await observe('gold', served(5300, (clock.at += 1000)));
    await receivedAll;
    const s = (lastAt - t0) / 1000;
    console.log(
      `\n| alerts: one reading crossing ${CROSSING.toLocaleString('en')} alerts on ${HOSTS} hosts, one target hanging (at most ${DELIVERIES_AT_ONCE} at once, ${DELIVERIES_PER_HOST} per webhook host) | |`,
    );
    console.log('|---|---|');
    console.log(`| from the reading to the other ${(CROSSING - 1).toLocaleString('en')} events received, s | ${s.toFixed(2)} |`);
    console.log(`| deliveries per second | ${((CROSSING - 1) / s).toFixed(0)} |`);
    console.log(`| the hanging target's request still open when they were all in | ${hanging ? 'yes' : 'no'} |`);
    (hanging as http.ServerResponse | null)?.writeHead(200).end('{}');
    const waiting = async () =>
      (await store.docs<{ id: string; outbox?: unknown[] }>(ALERTS)).docs.some((a) => a.id.startsWith('alrt_hang') && (a.outbox?.length ?? 0) > 0);
    while (await waiting()) await kick();
  } finally {
    delete process.env.ALERT_TARGETS_ALLOW;
    // Open receivers would keep the benchmark's process alive after its last section.
    for (const server of listening) {
      server.closeAllConnections();
      server.close();
    }
  }
}

export async function alertsSection(): Promise<void> {
  const fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bench-alerts-')), WARM_FEEDS: 'off' });
  try {
    const { getStore } = await import('../lib/store');
    const { ALERTS } = await import('../lib/alerts/model');
    const { observe, resetEvaluation } = await import('../lib/alerts/evaluate');
    const { feeds } = await import('../lib/sources/feeds');
    await feeds.fx.read();
    const store = getStore();
    const currencies = ['USD', 'EUR', 'GBP', 'JPY', 'INR', 'CHF', 'AUD', 'CAD'];
    const units = ['oz', 'gram', 'kg', 'tola', 'tael'] as const;
    const now = Date.now();
    const t0 = performance.now();
    for (let i = 0; i < ARMED; i++) {
      const id = `alrt_bench${i}`;
      // Levels a thousand times above or below any price: armed, never crossed.
      const above = i % 2 === 0;
      const condition = { type: above ? 'above' : 'below', value: above ? 1e9 + i : 1e-6 * (i + 1) } as const;
      const place = { currency: currencies[i % currencies.length], unit: units[i % units.length] };
      await store.putDoc(ALERTS, id, await armedAlert(id, condition, `https://hooks.example.com/${i % 5000}`, now, place));
    }
    const written = performance.now() - t0;
    const clock = { at: Date.now() };
    const { first, mean, p } = await timedReadings(clock);
    // One alert changes (as a fire, a re-arm or a creation does): the next reading reads only that one.
    const one = await store.getDoc<Record<string, unknown>>(ALERTS, 'alrt_bench0');
    await store.putDoc(ALERTS, 'alrt_bench0', { ...one, fired_count: 1 });
    const t2 = performance.now();
    await observe('gold', served(4000, (clock.at += 1000)));
    const afterChange = performance.now() - t2;
    console.log(`\n| alerts: one fresh reading of gold, ${ARMED.toLocaleString('en')} alerts armed, none crossed | ms |`);
    console.log('|---|---|');
    console.log(`| writing the alerts (once, not a reading) | ${written.toFixed(0)} |`);
    console.log(`| first reading: reads and sorts every alert (once per process) | ${first.toFixed(1)} |`);
    console.log(`| a reading, mean of ${READINGS} | ${mean.toFixed(2)} |`);
    console.log(`| the reading after one alert changed (reads that one alert only) | ${afterChange.toFixed(2)} |`);
    console.log(`| a reading, p50 / p99 | ${p(0.5).toFixed(2)} / ${p(0.99).toFixed(2)} |`);
    console.log(`\nmean under 5 ms: ${mean < 5 ? 'met' : 'NOT met'}`);

    await crossing(clock, `with the ${ARMED.toLocaleString('en')} above still armed, embedded store`);
    await oneTargetHanging(clock);

    // The same on KV, the store of a serverless deployment, where each store call is a network round trip.
    let redis: RedisServer;
    try {
      redis = await RedisServer.start();
    } catch (err) {
      console.log(`\nalerts on KV: skipped (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    const bridge = await UpstashBridge.start(redis.url);
    const slot = globalThis as Record<symbol, unknown>;
    const embedded = slot[STORE_SLOT];
    try {
      delete slot[STORE_SLOT];
      Object.assign(process.env, bridge.env(), { KV_TIMEOUT_MS: '30000' });
      resetEvaluation();
      await crossing(clock, `alone, on KV: redis-server behind the Upstash REST bridge, each answer ${KV_DELAY_MS} ms late during the crossing`, () =>
        bridge.slow(KV_DELAY_MS),
      );
    } finally {
      for (const k of ['KV_REST_API_URL', 'KV_REST_API_TOKEN', 'KV_PREFIX', 'KV_TIMEOUT_MS']) delete process.env[k];
      slot[STORE_SLOT] = embedded;
      await bridge.close();
      await redis.stop();
    }
  } finally {
    await fake.close();
  }
}
