import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { Served } from '@/lib/prices/served-price';
import { fixtureBars } from './bars';
import { waitFor } from './expect';
import { FakeUpstream } from './fake-upstream';

// The price alerts in process (decisions §28, §33), for the unit files of tests/unit/alerts/: the API's handlers, the
// embedded store, the evaluation fed by real served prices (spot through the fake upstream) or by readings handed to
// it, a local receiver that keeps every delivery (checked by the tests with the `standardwebhooks` library, as a
// user's receiver would) and answers per path as a test says, a local push service, and a listener that must never be
// reached. `alertHarness()` registers the file's hooks and returns what its tests use.

/** The last day of the broker's daily rows in tests/fixtures. */
export const LAST_FIXTURE_DAY = '2026-04-16';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** What the receiver does with the n-th request on a path: an answer, hold it unanswered, or cut the connection. */
export type Behaviour = (n: number) => { status: number; headers?: Record<string, string> } | 'hang' | 'reset';

export interface AlertLib {
  http: typeof import('@/lib/http/alerts');
  evaluate: typeof import('@/lib/alerts/evaluate');
  deliver: typeof import('@/lib/alerts/deliver');
  index: typeof import('@/lib/alerts/alert-index');
  records: typeof import('@/lib/alerts/records');
  model: typeof import('@/lib/alerts/model');
  targets: typeof import('@/lib/alerts/targets');
  spot: typeof import('@/lib/prices/spot');
  store: typeof import('@/lib/store');
}

export interface AlertHarness {
  lib: AlertLib;
  fake: FakeUpstream;
  /** The receiver's origin (http://127.0.0.1:port). */
  base: string;
  /** A port where a listener counts every connection: nothing may reach it. */
  trapPort: number;
  trapConnections: number;
  behaviour: Map<string, Behaviour>;
  /** What the receiver does on a path before it answers (while the delivery waits for the answer). */
  beforeAnswer: Map<string, (json: Received['json']) => void>;
  received: Received[];
  /** Requests held unanswered ('hang'): `release` answers them 200. */
  held: http.ServerResponse[];
  release(): void;
  /** What the local push service received, and what it answers per path (201 unless set; 0: held unanswered). */
  pushes: { path: string; headers: http.IncomingHttpHeaders; body: Buffer }[];
  pushAnswer: Map<string, number>;
  /** The time of the readings handed in (ms), a minute apart unless a test moves it. */
  clock: number;
  /** POST /api/v1/alerts, from a client address of its own unless `from` is given. */
  create(body: unknown, from?: string): Promise<{ res: Response; json: any }>;
  manage(url: string, method?: 'GET' | 'DELETE'): Promise<Response>;
  view(url: string): Promise<any>;
  /** A created alert, verified by its target (the receiver path `hook`). */
  activeAlert(
    hook: string,
    condition: Record<string, unknown>,
  ): Promise<{ id: string; manage_url: string; secret: string; status: string; expires_at: string }>;
  /** A served price of gold as the sampler's reading would be (fresh, or stale), taken at `takenAt` (default its own time). */
  served(usd: number, status?: 'fresh' | 'stale', at?: number, takenAt?: number): Served;
  /** Hands a reading to the evaluation and waits until it and the deliveries it queued are done. */
  reading(usd: number, status?: 'fresh' | 'stale', at?: number): Promise<void>;
  /** The events the receiver got on a path. */
  events(hook: string, type?: string): Received[];
  /** USD per troy ounce at which gold costs `eurPerGram`, from the FX table spot uses. */
  usdFor(eurPerGram: number): Promise<number>;
}

/**
 * A DNS resolver the test controls: every A and AAAA query the service sends (lib/alerts/targets.ts asks through
 * `dns.promises.Resolver`) is answered by `answer(host, family)`: addresses, or an error code (`ENOTFOUND`, `ENODATA`),
 * or a promise of either. Returns the queries asked, and the function that puts the real resolver back.
 */
export function controlledResolver(answer: (host: string, family: 4 | 6) => string[] | string | Promise<string[] | string>): {
  asked: { host: string; family: 4 | 6 }[];
  restore: () => void;
} {
  const asked: { host: string; family: 4 | 6 }[] = [];
  const proto = dns.promises.Resolver.prototype;
  const query = (family: 4 | 6) =>
    (async (host: string) => {
      asked.push({ host, family });
      const got = await answer(host, family);
      if (typeof got === 'string') throw Object.assign(new Error(`query${family === 4 ? 'A' : 'AAAA'} ${got} ${host}`), { code: got });
      return got;
    }) as never;
  const spies = [vi.spyOn(proto, 'resolve4').mockImplementation(query(4)), vi.spyOn(proto, 'resolve6').mockImplementation(query(6))];
  return { asked, restore: () => spies.forEach((s) => s.mockRestore()) };
}

let addresses = 0;
/** A client address no other creation of the file used (each counts against its own limit). */
export const freshAddress = () => `198.18.${(++addresses >> 8) & 255}.${addresses & 255}`;

export function alertHarness(): AlertHarness {
  let receiver: http.Server;
  let trap: net.Server;
  const h: AlertHarness = {
    // Set in beforeAll.
    lib: undefined as unknown as AlertLib,
    fake: undefined as unknown as FakeUpstream,
    base: '',
    trapPort: 0,
    trapConnections: 0,
    behaviour: new Map(),
    beforeAnswer: new Map(),
    received: [],
    held: [],
    pushes: [],
    pushAnswer: new Map(),
    // Readings handed in carry times of their own: time runs through them (the 10-minute limit is measured between
    // them), never through sleeps. They start a day ahead, after every alert's arming.
    clock: Date.now() + 86_400_000,
    release() {
      for (const res of h.held.splice(0)) res.writeHead(200).end('ok');
    },
    async create(body, from = freshAddress()) {
      const res = await h.lib.http.alertCollectionRoute().POST(
        new Request('http://localhost/api/v1/alerts', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-socket-address': from },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );
      return { res, json: await res.json() };
    },
    manage(url, method = 'GET') {
      return h.lib.http.alertRoute()[method](new Request(url, { method }));
    },
    async view(url) {
      return (await h.manage(url)).json();
    },
    async activeAlert(hook, condition) {
      const { res, json } = await h.create({ metal: 'gold', currency: 'EUR', unit: 'gram', ...condition, webhook: { url: `${h.base}${hook}` } });
      expect(res.status, JSON.stringify(json)).toBe(201);
      await waitFor(
        () => h.view(json.manage_url),
        (v) => v.status === 'active',
      );
      return json;
    },
    served(usd, status = 'fresh', at = (h.clock += 60_000), takenAt = at) {
      return {
        reading: { status, value: usd, asOf: at, source: status === 'fresh' ? 'upstream' : 'cache', fetchedAt: takenAt },
        source: 'gold-api.com',
        sources: [],
        crossCheck: { status: 'single', difference_pct: null },
        quote: null,
      };
    },
    async reading(usd, status = 'fresh', at) {
      await h.lib.evaluate.observe('gold', h.served(usd, status, at));
      await h.lib.deliver.kick();
    },
    events(hook, type = 'alert.triggered') {
      return h.received.filter((r) => r.path === hook && r.json.type === type);
    },
    async usdFor(eurPerGram) {
      const fx = await import('@/lib/sources/feeds');
      const table = (await fx.feeds.fx.read()).value!;
      return (eurPerGram * 31.1034768) / table.EUR;
    },
  };

  beforeAll(async () => {
    h.fake = await FakeUpstream.start();
    Object.assign(process.env, h.fake.env(), {
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-alerts-')),
      ALERT_TARGETS_ALLOW: '127.0.0.1',
      ALERT_RETRY_SCHEDULE_S: '0,0,0',
      WARM_FEEDS: 'off',
    });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (req.url?.startsWith('/push/')) {
          // The local push service: keeps what it was sent, answers 201 as push services do (or the test's status).
          h.pushes.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
          const status = h.pushAnswer.get(req.url) ?? 201;
          if (status === 0) return void h.held.push(res);
          res.writeHead(status).end();
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        const json = JSON.parse(body);
        h.received.push({ path: req.url ?? '', headers: req.headers, body, json });
        h.beforeAnswer.get(req.url ?? '')?.(json);
        const n = h.received.filter((r) => r.path === req.url).length;
        const answer = (h.behaviour.get(req.url ?? '') ?? ((() => ({ status: 200 })) as Behaviour))(n);
        if (answer === 'hang') return void h.held.push(res);
        if (answer === 'reset') return void req.socket.destroy();
        res.writeHead(answer.status, answer.headers);
        // A receiver that wants alerts echoes the challenge.
        res.end(json.type === 'alert.verification' ? JSON.stringify({ challenge: json.data.challenge }) : 'ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    h.base = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
    trap = net.createServer((s) => {
      h.trapConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    h.trapPort = (trap.address() as net.AddressInfo).port;
    h.lib = {
      http: await import('@/lib/http/alerts'),
      evaluate: await import('@/lib/alerts/evaluate'),
      deliver: await import('@/lib/alerts/deliver'),
      index: await import('@/lib/alerts/alert-index'),
      records: await import('@/lib/alerts/records'),
      model: await import('@/lib/alerts/model'),
      targets: await import('@/lib/alerts/targets'),
      spot: await import('@/lib/prices/spot'),
      store: await import('@/lib/store'),
    };
    // The previous close of move_pct: a real daily bar imported as an operator would (the latest bar before the current session).
    await h.lib.store.getStore().importBars('daily:xau', fixtureBars([LAST_FIXTURE_DAY]));
    h.lib.evaluate.startAlerts();
  });

  afterAll(async () => {
    h.release();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    await new Promise((r) => trap.close(r));
    await h.fake.close();
  });

  beforeEach(() => {
    process.env.ALERT_TARGETS_ALLOW = '127.0.0.1';
    delete process.env.ALERTS;
  });

  return h;
}
