import http from 'node:http';
import net from 'node:net';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PriceEvent } from '@/lib/schemas/stream';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture, PRIMARY_FIXTURE } from '../../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../../support/market';
import { blockSplitter, SseReader } from '../../support/sse';

// GET /api/v1/stream through `npm start` (server.mjs: method rules, the response cache, compression) with
// real clients: the `eventsource` package (WHATWG EventSource for Node) and raw sockets where the bytes
// and their timing are the point. Every upstream is the fake, which changes its price or fails on command.
// A stream that never saw a price and STREAM=off are the route handler's alone (tests/unit/http/stream.test.ts).

const gold = fixture(PRIMARY_FIXTURE.XAU);
/** The feeds' TTL here: one refresh interval. */
const TTL_S = 1;
/**
 * How long a wait for an event may last before the test gives up: a guard against a stream that never sends it, far above
 * the TTL plus the hub's one-second turn it takes. How soon events arrive is the stream benchmark's (BENCHMARKS §12),
 * not a bound a loaded machine could miss.
 */
const GIVE_UP_MS = 20_000;

const clock = marketClockAt(OPEN_DAY);
const goldAt = (price: number) => ({
  mode: 'json' as const,
  body: { ...gold, price, updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString().replace('.000Z', 'Z') },
});

interface Client {
  es: EventSource;
  events: { at: number; id: string; data: any }[];
  /** Request headers of each connection it made. */
  connections: Headers[];
  errors: { at: number; readyState: number }[];
}

function listen(url: string): Client {
  const c: Client = { es: null as never, events: [], connections: [], errors: [] };
  c.es = new EventSource(url, {
    fetch: (input, init) => {
      c.connections.push(new Headers(init?.headers as Record<string, string>));
      return fetch(input, init);
    },
  });
  c.es.addEventListener('price', (e) => c.events.push({ at: Date.now(), id: e.lastEventId, data: JSON.parse(e.data) }));
  c.es.addEventListener('error', () => c.errors.push({ at: Date.now(), readyState: c.es.readyState }));
  return c;
}

async function waitFor<T>(read: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const open: Client[] = [];
const closeAll = () => open.splice(0).forEach((c) => c.es.close());

describe('the price stream through npm start', () => {
  let fake: FakeUpstream;
  let app: App;
  beforeAll(async () => {
    fake = await FakeUpstream.start();
    // The whole server as deployed: the response cache and compression in front.
    app = await App.start({ env: { ...fake.env(), ...clock, CACHE_TTL_S: String(TTL_S), STREAM_HEARTBEAT_S: '1', RESPONSE_CACHE: 'on' } });
  });
  afterAll(async () => {
    closeAll();
    await app?.stop();
    await fake?.close();
  });

  it('a Node EventSource gets the current state on connecting, and the numbers are spot’s', async () => {
    // Nothing changes upstream meanwhile, so the first event can only be the state sent on connecting, not a change
    // pushed later. How soon it comes is the benchmark's (BENCHMARKS §12), not a bound a loaded machine could miss.
    const c = listen(`${app.url}/api/v1/stream?currency=EUR&unit=gram`);
    open.push(c);
    const first = await waitFor(() => c.events[0], 15_000, 'first event');
    const e = PriceEvent.parse(first.data);
    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body;
    expect(e).toMatchObject({ currency: 'EUR', unit: 'gram', price: spot.xau.price, fx_rate: spot.fx_rate, market: spot.market });
    expect(e.data_state).toMatchObject({ status: 'fresh', as_of: spot.data_state.as_of });
    for (const [metal, field] of [
      ['gold', 'spot_usd_oz'],
      ['silver', 'silver_usd_oz'],
      ['platinum', 'platinum_usd_oz'],
      ['palladium', 'palladium_usd_oz'],
    ] as const) {
      expect(e.metals[metal].usd_oz, metal).toBe(spot[field]);
      expect(e.metals[metal].data_state.status, metal).toBe(spot.groups[metal].status);
      expect(e.change_pct[metal], metal).toBe(spot[metal === 'gold' ? 'change' : `${metal}_change`].change_pct);
    }
    // Silver per gram in euros, rounded as spot rounds a gram price (4 decimals).
    expect(e.silver).toBe(Math.round(((spot.silver_usd_oz * spot.fx_rate) / 31.1034768) * 1e4) / 1e4);
    expect(Number(first.id)).toBe(Math.max(...Object.values(e.metals).map((m) => Date.parse(m.data_state.as_of!))));
    closeAll();
  });

  it('a new upstream price is pushed to every client from one turn of the hub, equal to spot’s; clients cause no upstream calls', async () => {
    const clients = Array.from({ length: 8 }, (_, i) => listen(`${app.url}/api/v1/stream${i % 2 ? '?currency=USD' : ''}`));
    open.push(...clients);
    for (const c of clients) await waitFor(() => c.events[0], 5000, 'first event');
    const next = gold.price + 4.25;
    fake.set('gold', goldAt(next));
    const made = new Set<string>();
    for (const c of clients) {
      const got = await waitFor(() => c.events.find((x) => x.data.price === next), GIVE_UP_MS, 'the new price');
      made.add(got.data.updated_at);
      // Pushed on the connection the client opened: it asked nothing again.
      expect(c.connections).toHaveLength(1);
    }
    // Every client's event was made in one turn of the hub, not per client.
    expect(made.size).toBe(1);
    expect((await app.json('/api/v1/spot?compact=1')).body.xau.price).toBe(next);

    // Eight clients for five seconds: the reads of one instance, one gold call per TTL at most.
    fake.resetCalls();
    await sleep(5000);
    expect(fake.calls.gold).toBeLessThanOrEqual(5 / TTL_S + 1);
    expect(fake.calls.gold).toBeGreaterThan(0);
    closeAll();
  });

  it('outage: the last real price flagged stale, nothing invented; recovery: fresh again', async () => {
    const c = listen(`${app.url}/api/v1/stream`);
    open.push(c);
    const before = PriceEvent.parse((await waitFor(() => c.events[0], 5000, 'first event')).data);
    expect(before.data_state.status).toBe('fresh');
    fake.set('gold', { mode: 'status', status: 500 }).set('quotes:XAU', { mode: 'refuse' });
    const stale = await waitFor(() => c.events.find((x) => x.data.data_state.status === 'stale'), GIVE_UP_MS, 'stale');
    expect(stale.data.price).toBe(before.price);
    expect(stale.data.metals.gold.usd_oz).toBe(before.metals.gold.usd_oz);
    // Silver kept its own sources: its state is its own.
    expect(stale.data.metals.silver.data_state.status).toBe('fresh');
    fake.reset();
    await waitFor(() => c.events.find((x) => x.at > stale.at && x.data.data_state.status === 'fresh'), GIVE_UP_MS, 'fresh again');
    closeAll();
  });

  it('a quiet stream gets a heartbeat event; events arrive one by one, not held back by compression or the cache', async () => {
    // As a browser asks: compression accepted. Two clients of the same URL: the cache neither holds nor shares it.
    const ask = () =>
      new Promise<{ res: http.IncomingMessage; blocks: { at: number; text: string }[] }>((resolve, reject) => {
        const req = http.get(
          `${app.url}/api/v1/stream?currency=GBP`,
          { headers: { 'accept-encoding': 'br, gzip', accept: 'text/event-stream' } },
          (res) => {
            const blocks: { at: number; text: string }[] = [];
            res.setEncoding('utf8');
            res.on(
              'data',
              blockSplitter((text) => blocks.push({ at: Date.now(), text })),
            );
            resolve({ res, blocks });
          },
        );
        req.on('error', reject);
      });
    const [a, b] = await Promise.all([ask(), ask()]);
    for (const { res, blocks } of [a, b]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['x-cache']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store, no-transform');
      expect(res.headers['x-accel-buffering']).toBe('no');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      await waitFor(() => blocks.find((x) => x.text.includes('event: price')), 3000, 'first event');
    }
    // Heartbeat events, each on its own as it is written (a buffering layer would hand them over together).
    const isBeat = (x: { text: string }) => x.text.startsWith('event: heartbeat\ndata: {"every_s":');
    // Four beats a second apart: held back, they would come together; a test process a loaded machine starves for a
    // moment may read two at once, not all four.
    const beats = await waitFor(() => (a.blocks.filter(isBeat).length >= 4 ? a.blocks.filter(isBeat) : undefined), GIVE_UP_MS, 'heartbeats');
    expect(beats[3].at - beats[0].at).toBeGreaterThan(1000);
    // A change reaches this client on its own (the stream is in pounds: gold's USD price is in `metals`).
    const next = gold.price - 2.75;
    fake.set('gold', goldAt(next));
    const changedAt = Date.now();
    const got = await waitFor(() => a.blocks.find((x) => x.text.includes(`"usd_oz":${next},`)), GIVE_UP_MS, 'the new price');
    console.log(`[stream] upstream change to event through npm start: ${got.at - changedAt} ms`);
    a.res.destroy();
    b.res.destroy();
  });

  it('a bad currency or unit is a 400 JSON before any stream; HEAD and OPTIONS answer as every route', async () => {
    const bad = await app.json('/api/v1/stream?currency=XYZ');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unsupported currency: XYZ');
    expect(bad.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await app.json('/api/v1/stream?unit=stone')).status).toBe(400);
    const head = await app.get('/api/v1/stream', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const options = await app.get('/api/v1/stream', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    const post = await app.json('/api/v1/stream', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('the stream’s end, the cap and the switch', () => {
  it('ends after STREAM_MAX_S with a last comment; EventSource reconnects with Last-Event-ID and gets the current state at once', async () => {
    const fake = await FakeUpstream.start();
    const app = await App.start({ env: { ...fake.env(), ...clock, CACHE_TTL_S: String(TTL_S), STREAM_MAX_S: '2' } });
    try {
      const res = await app.get('/api/v1/stream');
      const raw = new SseReader(res.body!);
      await raw.end(6000);
      expect(raw.blocks.at(-1)!.comment).toMatch(/ends after 2 s/);

      const c = listen(`${app.url}/api/v1/stream`);
      const first = await waitFor(() => c.events[0], 5000, 'first event');
      // The server ends it; EventSource waits the `retry` (5 s) and comes back by itself.
      const again = await waitFor(() => c.events.find((x) => x.at > first.at), 2000 + 5000 + 3000, 'the event after the reconnect');
      expect(c.connections).toHaveLength(2);
      expect(c.connections[0].get('last-event-id')).toBeNull();
      expect(c.connections[1].get('last-event-id')).toBe(first.id);
      // Only the latest state, at once on the new connection: the same id, since no price moved.
      expect(again.id).toBe(first.id);
      expect(c.errors.length).toBeGreaterThanOrEqual(1);
      c.es.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 60_000);

  it('over STREAM_MAX_CLIENTS: 503 JSON with Retry-After, and EventSource gives up (widgets then poll); a slot frees when a client leaves', async () => {
    const fake = await FakeUpstream.start();
    const app = await App.start({ env: { ...fake.env(), ...clock, STREAM_MAX_CLIENTS: '2' } });
    try {
      const a = listen(`${app.url}/api/v1/stream`);
      const b = listen(`${app.url}/api/v1/stream?currency=EUR`);
      for (const c of [a, b]) await waitFor(() => c.events[0], 5000, 'first event');
      const full = await app.json('/api/v1/stream');
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('30');
      expect(full.body.error).toMatch(/as many price streams/);
      expect(full.body.data_state.status).toBe('fresh');
      const refused = listen(`${app.url}/api/v1/stream`);
      await waitFor(() => refused.errors[0], 5000, 'an error');
      expect(refused.es.readyState).toBe(EventSource.CLOSED);
      // One leaves: its slot is free as soon as the server sees the connection go.
      a.es.close();
      const deadline = Date.now() + 3000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        const res = await app.get('/api/v1/stream');
        status = res.status;
        await res.body?.cancel();
        if (status !== 200) await sleep(50);
      }
      expect(status).toBe(200);
      b.es.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  });

  it('SIGTERM: every open stream ends at once with a last comment, and the server exits without waiting out its 5 s grace', async () => {
    const fake = await FakeUpstream.start();
    const app = await App.start({ env: { ...fake.env(), ...clock, RESPONSE_CACHE: 'on' } });
    try {
      const readers = await Promise.all(
        ['', '?currency=EUR&unit=gram'].map(async (query) => {
          const raw = new SseReader((await app.get(`/api/v1/stream${query}`)).body!);
          await raw.next((b) => b.event === 'price', 5000);
          return raw;
        }),
      );
      // A connection opened and never used (as a browser's preconnect) does not hold the stop either.
      const { port } = new URL(app.url);
      const unused = net.connect(Number(port), '127.0.0.1');
      await new Promise((resolve, reject) => unused.once('connect', resolve).once('error', reject));
      const unusedClosed = new Promise((resolve) => unused.once('close', resolve));
      await app.stop();
      // A stream or connection that held the stop would have been cut by the server's grace running out, which it logs.
      expect(app.output).not.toMatch(/grace over/);
      for (const raw of readers) {
        await raw.end(5000);
        expect(raw.blocks.at(-1)!.comment).toBe('this instance is stopping; reconnect');
      }
      await unusedClosed;
    } finally {
      await app.stop();
      await fake.close();
    }
  });

  it('SIGTERM with an answer held past the 5 s grace (its upstream hangs): the server cuts it, says so and exits', async () => {
    const fake = await FakeUpstream.start();
    fake.set('gold', { mode: 'hang' }).set('quotes', { mode: 'hang' });
    // An upstream deadline far past the grace: only the grace can end this answer.
    const app = await App.start({ env: { ...fake.env(), ...clock, UPSTREAM_TIMEOUT_MS: '60000' } });
    try {
      const held = app.get('/api/v1/spot?compact=1').then(
        () => 'answered',
        () => 'cut',
      );
      await expect.poll(() => fake.calls.gold).toBeGreaterThan(0);
      await app.stop();
      expect(app.output).toMatch(/\[shutdown\] grace over after 5 s: 1 connection\(s\) still open were cut/);
      expect(await held).toBe('cut');
    } finally {
      await app.stop();
      await fake.close();
    }
  });
});
