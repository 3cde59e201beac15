import crypto from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertCreated } from '@/lib/schemas/alerts';
import pkg from '../../../package.json';
import { startReceiver, type Received } from '../../support/alert-receiver';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { call, rpc } from '../../support/mcp';
import { Nginx } from '../../support/nginx';
import { windowStart } from '../../support/rate-window';
import { RedisServer } from '../../support/redis-server';
import { SseReader } from '../../support/sse';

// "Run many instances" as docs/deploying.md writes it: `npm start` twice with REDIS_URL on one redis-server that asks
// for a password, every sampler on, TRUST_PROXY=1, behind nginx running docs/nginx.conf. What the service promises
// about shared state holds there as on Vercel: the last real price shared, one point per bucket, the MCP limit
// shared, an alert delivered once, and Redis paused mid-run without a 5xx, the record catching up after. A third
// instance with a wrong password starts, answers, and says its store is down.

const PASSWORD = 'many-instances:s3cret';
const METRICS_TOKEN = 'many-instances-metrics';
const CRON_SECRET = 'many-instances-cron';
const { version } = pkg;
const gold: { price: number; updatedAt: string } = fixture('goldapi-price-XAU.json');
const goldLater: { price: number } = fixture('goldapi-price-XAU-2026-09-03.json');
/** Between the two recorded prices: the second crosses it. */
const LEVEL = Math.round((gold.price + goldLater.price) / 2);
/** The apps' /mcp window: a burst of four requests fits in its second half on a loaded machine. */
const MCP_WINDOW_S = 20;

let redis: RedisServer;
/** A's upstreams answer; B's gold upstream refuses every call, so a fresh gold price on B came from A through Redis. */
let fakeA: FakeUpstream;
let fakeB: FakeUpstream;
let a: App;
let b: App;
let wrongPassword: App;
let nginx: Nginx;
let receiver: http.Server;
let hook = '';
let received: Received[] = [];

beforeAll(async () => {
  redis = await RedisServer.start({ password: PASSWORD });
  [fakeA, fakeB] = await Promise.all([FakeUpstream.start(), FakeUpstream.start()]);
  // One live source is enough to follow a price through Redis.
  fakeA.set('quotes', { mode: 'refuse' });
  fakeB.set('quotes', { mode: 'refuse' }).set('gold', { mode: 'refuse' });
  ({ server: receiver, url: hook, received } = await startReceiver());
  const env = {
    REDIS_URL: redis.url,
    KV_PREFIX: `many-${crypto.randomBytes(4).toString('hex')}:`,
    // Far above a real Redis's latency on a loaded machine; only the pause below makes it fire.
    KV_TIMEOUT_MS: '3000',
    SAMPLER: 'on',
    SAMPLE_INTERVAL_S: '2',
    // A's price is fetched again at most every 4 s, so B always finds one stored recently.
    CACHE_TTL_S: '4',
    TRUST_PROXY: '1',
    METRICS_TOKEN,
    CRON_SECRET,
    ALERT_TARGETS_ALLOW: '127.0.0.1',
    STREAM_HEARTBEAT_S: '2',
    MCP_RATE_WINDOW_S: String(MCP_WINDOW_S),
    ...marketClockAt(OPEN_DAY),
  };
  [a, b, wrongPassword] = await Promise.all([
    App.start({ env: { ...fakeA.env(), ...env } }),
    App.start({ env: { ...fakeB.env(), ...env } }),
    // Both stores configured: REDIS_URL wins, and its password is wrong.
    App.start({
      env: {
        ...fakeA.env(),
        ...env,
        SAMPLER: 'off',
        REDIS_URL: redis.urlWith('not-the-password'),
        KV_REST_API_URL: 'http://127.0.0.1:9',
        KV_REST_API_TOKEN: 't',
      },
    }),
  ]);
  nginx = await Nginx.start([a, b].map((app) => new URL(app.url).host));
});

afterAll(async () => {
  await nginx?.stop();
  for (const app of [a, b, wrongPassword]) await app?.stop();
  await Promise.all([fakeA?.close(), fakeB?.close()]);
  await new Promise((r) => receiver?.close(r));
  redis?.resume();
  await redis?.stop();
});

const health = async (app: App) => (await app.json('/api/health')).body;
const storeOf = async (app: App) => (await app.json('/api/v1/spot?compact=1&debug=1')).body.debug?.store;
const intraday = async (app: App) =>
  (await app.json('/api/v1/intraday?symbol=xau&hours=1')).body as { count: number; points: { t: number; p: number }[] };
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** One count of the instance's /metrics, by its full series name (0 when not counted yet). */
async function metric(app: App, series: string): Promise<number> {
  const text = await (await app.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** A JSON POST through the proxy from a local address of our choosing: a client nginx sees as `from`. */
function postFrom(from: string, url: string, body: unknown): Promise<{ status: number; left: number; json: any }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            left: Number(/;r=(\d+);/.exec(String(res.headers.ratelimit ?? ''))?.[1]),
            json: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('many instances on one Redis over TCP, behind nginx', () => {
  it('each instance names its store; one with a wrong password starts, answers from its upstream and says its store is down', async () => {
    for (const app of [a, b]) {
      expect(await health(app)).toEqual({ status: 'ok', store: 'redis', version });
      expect((await app.json('/api/v1/status')).body.store).toMatchObject({ kind: 'redis', answers: true });
    }
    // The start-up log names the store in use and why, never the password.
    expect(wrongPassword.output).toMatch(
      /\[store\] shared store: Redis at 127\.0\.0\.1:\d+ \(REDIS_URL\); KV_REST_API_URL and KV_REST_API_TOKEN are set too and not used \(REDIS_URL wins/,
    );
    const spot = await wrongPassword.json('/api/v1/spot?compact=1&debug=1');
    expect(spot.status).toBe(200);
    expect(spot.body).toMatchObject({ spot_usd_oz: gold.price, data_state: { status: 'fresh', source: 'upstream' } });
    expect(spot.body.debug.store).toBe('redis-degraded');
    const h = await wrongPassword.get('/api/health');
    expect(h.status).toBe(200);
    expect(await h.json()).toEqual({ status: 'degraded', store: 'down', version });
    expect(wrongPassword.output).toMatch(/\[store\] Redis unavailable \((NOAUTH|.*WRONGPASS)/);
    expect(wrongPassword.output).not.toContain('not-the-password');
    await wrongPassword.stop();
  });

  it('a price one instance fetched is served fresh by the other, whose upstream is down', async () => {
    // B's gold upstream never answers: a fresh gold price on B is one A fetched and stored in Redis.
    await expect
      .poll(async () => {
        const r = await b.json('/api/v1/spot?compact=1&debug=1');
        return {
          status: r.status,
          price: r.body.spot_usd_oz,
          state: r.body.data_state?.status,
          source: r.body.data_state?.source,
          store: r.body.debug?.store,
        };
      })
      .toEqual({ status: 200, price: gold.price, state: 'fresh', source: 'cache', store: 'redis' });
    expect(fakeA.calls.gold).toBeGreaterThan(0);
  });

  it('behind docs/nginx.conf: both instances answer, links follow the client, a stream passes through unbuffered, the MCP limit keys on the client', async () => {
    // nginx takes the instances in turn.
    const served = () => Promise.all([a, b].map((app) => metric(app, 'goldapi_http_requests_total{route="/api/health",status="200"}')));
    const before = await served();
    for (let i = 0; i < 6; i++) expect((await fetch(`${nginx.url}/api/health`)).status).toBe(200);
    const after = await served();
    expect(after.map((n, i) => n - before[i])).toEqual([3, 3]);

    // Links name the host and scheme the client used (X-Forwarded-Host and -Proto from nginx).
    const spot = await (await fetch(`${nginx.url}/api/v1/spot`)).json();
    expect(spot.docs.startsWith(`${nginx.url}/`)).toBe(true);

    // The stream: its first price event, then a heartbeat two seconds later, while it stays open.
    const res = await fetch(`${nginx.url}/api/v1/stream`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sse = new SseReader(res.body!);
    try {
      const price = await sse.next((x) => x.event === 'price');
      expect(JSON.parse(price.data!).price).toBeGreaterThan(0);
      await sse.next((x) => x.event === 'heartbeat', 15_000);
      expect(sse.ended).toBe(false);
    } finally {
      await sse.close();
    }

    // The limit: 120 JSON-RPC messages per window per client, shared by the instances, keyed on the address nginx saw.
    // Pings: every JSON-RPC message counts, and theirs are the smallest answers.
    const list = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'ping' }));
    const mcpServed = () => Promise.all([a, b].map((app) => metric(app, 'goldapi_http_requests_total{route="/mcp",status="200"}')));
    for (let attempt = 1; ; attempt++) {
      const inWindow = await windowStart(MCP_WINDOW_S, MCP_WINDOW_S / 2);
      const counted = await mcpServed();
      const first = await postFrom('127.0.0.2', `${nginx.url}/mcp`, list(60, 1));
      const second = await postFrom('127.0.0.2', `${nginx.url}/mcp`, list(60, 61));
      const batches = await mcpServed();
      const over = await postFrom('127.0.0.2', `${nginx.url}/mcp`, list(1, 121)[0]);
      const other = await postFrom('127.0.0.3', `${nginx.url}/mcp`, list(1, 1)[0]);
      if (!inWindow()) {
        if (attempt === 3) throw new Error('the burst crossed a rate window three times');
        continue;
      }
      // One batch each: the second instance counted on from the first's 60.
      expect(batches.map((n, i) => n - counted[i])).toEqual([1, 1]);
      expect([first.status, first.left, second.status, second.left]).toEqual([200, 60, 200, 0]);
      expect(over.status).toBe(429);
      expect(over.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32029 } });
      // Another client behind the same proxy has its own count.
      expect([other.status, other.left]).toEqual([200, 119]);
      break;
    }
  });

  it('both samplers and the cron route on both instances record one point per bucket, which both instances show', async () => {
    const cron = (app: App) => app.json('/api/cron/sample', { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    const start = (await intraday(a)).count;
    // The cron route on both instances, over and over, while both samplers run: 7 s at least, and on until three more
    // buckets are recorded (a loaded machine records fewer a second; that no bucket is recorded twice is the point).
    const until = Date.now() + 7000;
    while (Date.now() < until || ((await intraday(a)).count < start + 3 && Date.now() < until + 40_000)) {
      const r = await Promise.all([a, b, a, b].map(cron));
      expect(r.map((x) => x.status)).toEqual([200, 200, 200, 200]);
      await sleep(300);
    }
    const [fromA, fromB] = [await intraday(a), await intraday(b)];
    expect(fromA.count).toBeGreaterThanOrEqual(start + 3);
    // The samplers go on, so a point may land between the two reads: both hold the same up to the last both could see.
    const upTo = Math.min(fromA.points.at(-1)!.t, fromB.points.at(-1)!.t);
    const seenByBoth = (points: { t: number }[]) => points.filter((p) => p.t <= upTo);
    expect(seenByBoth(fromB.points)).toEqual(seenByBoth(fromA.points));
    expect(new Set(fromA.points.map((p) => Math.floor(p.t / 2))).size).toBe(fromA.count);
  });

  it('an alert created on one instance is verified once and its crossing delivered once', async () => {
    const res = await a.get('/api/v1/alerts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'USD', unit: 'oz', above: LEVEL, webhook: { url: hook } }),
    });
    expect(res.status).toBe(201);
    const created = AlertCreated.parse(await res.json());
    const manage = new URL(created.manage_url);
    // The other instance shows it, from Redis.
    await expect.poll(async () => (await b.json(manage.pathname + manage.search)).body.status, { timeout: 30_000 }).toBe('active');
    // Two more readings below the level after it was armed; then both instances' upstreams answer the later price,
    // above it, so each may read the crossing itself.
    const calls = fakeA.calls.gold;
    await expect.poll(() => fakeA.calls.gold, { timeout: 30_000 }).toBeGreaterThanOrEqual(calls + 2);
    const [fromA, fromB] = [fakeA.calls.gold, fakeB.calls.gold];
    for (const fake of [fakeA, fakeB]) fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    await expect.poll(() => received.filter((r) => r.json.type === 'alert.triggered').length, { timeout: 30_000 }).toBeGreaterThan(0);
    // Both instances go on reading the new price for a while (from their upstreams, or the one the other stored):
    // nothing more is sent.
    await expect.poll(() => fakeA.calls.gold + fakeB.calls.gold - fromA - fromB, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(async () => (await b.json('/api/v1/spot?compact=1')).body.spot_usd_oz).toBe(goldLater.price);
    // B's upstream is down again for what follows.
    fakeB.set('gold', { mode: 'refuse' });
    expect(received.filter((r) => r.json.type === 'alert.verification')).toHaveLength(1);
    const triggered = received.filter((r) => r.json.type === 'alert.triggered');
    expect(triggered).toHaveLength(1);
    expect(() => new Webhook(created.secret!).verify(triggered[0].body, triggered[0].headers as Record<string, string>)).not.toThrow();
    expect(triggered[0].json.data).toMatchObject({ alert_id: created.id, previous: gold.price, price: goldLater.price });
    for (const app of [a, b]) await expect.poll(async () => (await app.json('/api/v1/status')).body.alerts).toMatchObject({ fired: 1, delivered: 1 });
  });

  it('Redis paused mid-run: no 5xx, each instance answers from its upstream or memory, and the record catches up once Redis answers', async () => {
    const statuses: number[] = [];
    const ask = async (app: App, path: string) => {
      const r = await app.json(path);
      statuses.push(r.status);
      return r;
    };
    for (const app of [a, b]) expect(await storeOf(app)).toBe('redis');
    redis.pause();
    try {
      // Each instance finds Redis silent within its timeout (its own sampler is enough) and runs on alone.
      for (const app of [a, b]) {
        await expect
          .poll(async () => (await ask(app, '/api/health')).body, { timeout: 30_000 })
          .toEqual({ status: 'degraded', store: 'down', version });
      }
      // A from its upstream; B, whose upstream is down, from the last real price it holds: flagged stale, never invented.
      const fromA = await ask(a, '/api/v1/spot?compact=1&debug=1');
      expect(fromA.body).toMatchObject({ spot_usd_oz: goldLater.price, data_state: { status: 'fresh' }, debug: { store: 'redis-degraded' } });
      const fromB = await ask(b, '/api/v1/spot?compact=1&debug=1');
      expect(fromB.body).toMatchObject({
        stale: true,
        spot_usd_oz: goldLater.price,
        data_state: { status: 'stale' },
        debug: { store: 'redis-degraded' },
      });
      for (const app of [a, b]) {
        const r = await rpc(app, call('get_gold_price', { currency: 'EUR' }));
        statuses.push(r.status);
        expect(r.json.result.isError).toBeFalsy();
      }
    } finally {
      redis.resume();
    }
    const resumed = Math.floor(Date.now() / 1000);
    for (const app of [a, b]) {
      await expect.poll(async () => (await ask(app, '/api/health')).body, { timeout: 30_000 }).toEqual({ status: 'ok', store: 'redis', version });
    }
    // The record goes on from where Redis is: new points after it answered again, one per bucket, the same on both.
    await expect.poll(async () => (await intraday(a)).points.filter((p) => p.t >= resumed).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const [fromA, fromB] = [await intraday(a), await intraday(b)];
    const upTo = Math.min(fromA.points.at(-1)!.t, fromB.points.at(-1)!.t);
    expect(fromB.points.filter((p) => p.t <= upTo)).toEqual(fromA.points.filter((p) => p.t <= upTo));
    expect(new Set(fromA.points.map((p) => Math.floor(p.t / 2))).size).toBe(fromA.count);
    // And B serves A's price fresh from Redis again.
    await expect.poll(async () => (await ask(b, '/api/v1/spot?compact=1')).body.data_state?.status).toBe('fresh');
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const app of [a, b]) {
      // Each outage logged once as it began and once as it ended.
      expect(count(app.output, '[store] Redis unavailable')).toBeGreaterThanOrEqual(1);
      expect(count(app.output, '[store] Redis answering again')).toBe(count(app.output, '[store] Redis unavailable'));
    }
  });
});
