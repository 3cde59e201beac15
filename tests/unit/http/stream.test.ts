import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as spot from '@/app/api/v1/spot/route';
import * as stream from '@/app/api/v1/stream/route';
import { runShutdown } from '@/lib/core/shutdown.mjs';
import { sessionNow } from '@/lib/calendar/clock';
import { streamHub } from '@/lib/http/stream-hub';
import { closeFx, recordServed } from '@/lib/prices/bars';
import { feeds } from '@/lib/sources/feeds';
import { ErrorBody } from '@/lib/schemas/common';
import { HeartbeatEvent, PriceEvent } from '@/lib/schemas/stream';
import { figuresOfEvent, figuresOfSpot, textsOf } from '@/site/price-figures';
import { PAGE_STRINGS, STRINGS } from '@/widgets/i18n';
import { checkContract } from '../../support/contract';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { SseReader } from '../../support/sse';

// The stream route called in process (decisions §21): Request in, a text/event-stream out, read block by
// block. The hub, its one timer and its fan-out are the real ones; every upstream is the fake.

const gold = fixture('goldapi-price-XAU.json');

let fake: FakeUpstream;
const open: SseReader[] = [];

beforeAll(async () => {
  fake = await FakeUpstream.start();
  for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-stream-')));
  vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1500');
  vi.stubEnv('CACHE_TTL_S', '1');
  // A short heartbeat also makes the hub's turn short (half of it): these tests wait less.
  vi.stubEnv('STREAM_HEARTBEAT_S', '0.5');
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  vi.unstubAllEnvs();
  await fake?.close();
});

async function connect(query = '', headers: Record<string, string> = {}) {
  const res = await stream.GET(new Request(`http://t/api/v1/stream${query}`, { headers }));
  if (res.status !== 200) {
    const body = await res.json();
    checkContract('/api/v1/stream', res.status, body);
    return { res, body, sse: null };
  }
  const sse = new SseReader(res.body!);
  open.push(sse);
  return { res, body: null, sse };
}

async function closeAll() {
  await Promise.all(open.splice(0).map((r) => r.close()));
  // The hub notices a cancelled body at once.
  await expect.poll(() => streamHub().size).toBe(0);
}

const spotOf = async (q: string) => (await spot.GET(new Request(`http://t/api/v1/spot?compact=1&${q}`))).json();

describe('the price stream in process', () => {
  it('never seen: the first event says so with null prices, nothing invented', async () => {
    for (const route of ['gold', 'silver', 'platinum', 'palladium', 'quotes'] as const) fake.set(route, { mode: 'refuse' });
    const { res, sse } = await connect();
    expect(res.status).toBe(200);
    const first = PriceEvent.parse(JSON.parse((await sse!.next((b) => b.event === 'price')).data!));
    expect([first.price, first.silver, first.platinum, first.palladium, first.bid, first.ask]).toEqual([null, null, null, null, null, null]);
    expect(first.data_state).toMatchObject({ status: 'unavailable', as_of: null, source: null });
    expect(first.metals.gold).toMatchObject({ usd_oz: null, change: null });
    expect(Object.values(first.change_pct)).toEqual([null, null, null, null]);
    expect(sse!.blocks.find((b) => b.event === 'price')!.id).toBeUndefined();
    // The sources answer again: the same stream turns fresh by itself, with the real price.
    fake.reset();
    const fresh = await sse!.next((b) => b.event === 'price' && JSON.parse(b.data!).data_state.status === 'fresh', 8000);
    expect(JSON.parse(fresh.data!).price).toBe(gold.price);
    await closeAll();
  });

  it('answers at once: headers, retry, then the current state, equal to spot in the same currency and unit', async () => {
    const { res, sse } = await connect('?currency=eur&unit=gram');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const price = await sse!.next((b) => b.event === 'price');
    // At once: the retry, then the state, with no heartbeat between (nothing changed upstream to push).
    expect(sse!.blocks[0]).toMatchObject({ retry: 5000 });
    expect(sse!.blocks.indexOf(price)).toBe(1);
    const e = PriceEvent.parse(JSON.parse(price.data!));
    const s = await spotOf('currency=EUR&unit=gram');
    expect(e).toMatchObject({ currency: 'EUR', unit: 'gram', price: s.xau.price, fx_rate: s.fx_rate });
    expect(e.data_state.status).toBe('fresh');
    expect(e.data_state.as_of).toBe(s.data_state.as_of);
    expect(e.metals.gold.usd_oz).toBe(s.spot_usd_oz);
    expect(e.metals.silver.usd_oz).toBe(s.silver_usd_oz);
    expect(e.market).toEqual(s.market);
    expect(Number(price.id)).toBe(Math.max(...Object.values(e.metals).map((m) => Date.parse(m.data_state.as_of!))));
    await closeAll();
  });

  it('an exchange rate going stale is pushed as spot says it (fx_stale, groups.fx), and its return to fresh', async () => {
    const { sse } = await connect('?currency=JPY&unit=gram');
    const first = PriceEvent.parse(JSON.parse((await sse!.next((b) => b.event === 'price')).data!));
    expect(first.fx_stale).toBe(false);
    expect(first.fx_state.status).toBe('fresh');
    // The FX upstream goes down: once the table's time is past (CACHE_TTL_S 1), spot serves the last live table, stale,
    // and the stream tells its clients without a price having changed.
    fake.set('fx', { mode: 'refuse' });
    try {
      const stale = PriceEvent.parse(JSON.parse((await sse!.next((b) => b.event === 'price' && JSON.parse(b.data!).fx_stale, 15_000)).data!));
      const s = await spotOf('currency=JPY&unit=gram');
      expect(s.fx_stale).toBe(true);
      expect(stale.fx_state).toMatchObject({ status: 'stale', as_of: s.groups.fx.as_of, source: s.groups.fx.source });
      expect(stale.fx_rate).toBe(first.fx_rate);
      expect(stale.price).toBe(first.price);
    } finally {
      fake.reset();
    }
    const back = await sse!.next(
      (b) => b.event === 'price' && JSON.parse(b.data!).fx_state.status === 'fresh' && !JSON.parse(b.data!).fx_stale,
      15_000,
    );
    expect(JSON.parse(back.data!).fx_rate).toBe(first.fx_rate);
    await closeAll();
  });

  it('a new upstream price is pushed to every client from one turn of the hub; quiet streams get a heartbeat', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => connect('?currency=USD')));
    for (const c of clients) await c.sse!.next((b) => b.event === 'price');
    // Nothing changes: a named `heartbeat` event comes, which EventSource surfaces (a comment it never would), saying
    // how often it comes.
    const beat = await clients[0].sse!.next((b) => b.event === 'heartbeat', 15_000);
    expect(HeartbeatEvent.parse(JSON.parse(beat.data!))).toEqual({ every_s: 0.5 });
    expect(beat.id).toBeUndefined();
    const next = { ...gold, price: gold.price + 3.5, updatedAt: new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z') };
    fake.set('gold', { mode: 'json', body: next });
    // How soon is the stream benchmark's (BENCHMARKS §12); here, that one turn made the event every client gets.
    const made = new Set<string>();
    for (const c of clients) {
      const b = await c.sse!.next((x) => x.event === 'price' && JSON.parse(x.data!).price === next.price, 15_000);
      made.add(JSON.parse(b.data!).updated_at);
    }
    expect(made.size).toBe(1);
    const s = await spotOf('currency=USD');
    expect(s.xau.price).toBe(next.price);
    await closeAll();
  });

  it('a reconnect with Last-Event-ID gets the current state at once, no replay', async () => {
    const { sse } = await connect('', { 'last-event-id': '1' });
    await sse!.next((b) => b.event === 'price', 5000);
    expect(sse!.prices).toHaveLength(1);
    await closeAll();
  });

  it('ends after STREAM_MAX_S with a last comment', async () => {
    vi.stubEnv('STREAM_MAX_S', '1');
    try {
      const { sse } = await connect();
      const t0 = Date.now();
      await sse!.end(5000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
      expect(sse!.blocks.at(-1)!.comment).toMatch(/ends after 1 s/);
      await expect.poll(() => streamHub().size).toBe(0);
    } finally {
      vi.stubEnv('STREAM_MAX_S', '3600');
    }
  });

  it("the server's shutdown (server.mjs on SIGTERM) ends every open stream with a last comment", async () => {
    const streams = [(await connect()).sse!, (await connect('?currency=EUR&unit=gram')).sse!];
    for (const sse of streams) await sse.next((b) => b.event === 'price', 5000);
    runShutdown();
    for (const sse of streams) {
      await sse.end(5000);
      expect(sse.blocks.at(-1)!.comment).toBe('this instance is stopping; reconnect');
    }
    expect(streamHub().size).toBe(0);
  });

  it('over STREAM_MAX_CLIENTS: 503 JSON with Retry-After; a slot frees when a client leaves', async () => {
    vi.stubEnv('STREAM_MAX_CLIENTS', '2');
    try {
      const a = await connect();
      await connect();
      const full = await connect();
      expect(full.res.status).toBe(503);
      ErrorBody.parse(full.body);
      expect(full.res.headers.get('retry-after')).toBe('30');
      expect(full.res.headers.get('cache-control')).toBe('no-store');
      await a.sse!.close();
      await expect.poll(() => streamHub().size).toBe(1);
      expect((await connect()).res.status).toBe(200);
      await closeAll();
    } finally {
      vi.stubEnv('STREAM_MAX_CLIENTS', '2000');
    }
  });

  it('STREAM=off: 503 JSON', async () => {
    vi.stubEnv('STREAM', 'off');
    try {
      const r = await connect();
      expect(r.res.status).toBe(503);
      expect(r.body.error).toMatch(/turned off/);
      expect(r.res.headers.get('cache-control')).toBe('no-store');
    } finally {
      vi.stubEnv('STREAM', 'on');
    }
  });

  it('a bad currency or unit is a 400 JSON before any stream starts', async () => {
    const c = await connect('?currency=XYZ');
    expect(c.res.status).toBe(400);
    expect(c.body.error).toBe('Unsupported currency: XYZ');
    expect(c.body.supported).toContain('EUR');
    const u = await connect('?unit=stone');
    expect(u.res.status).toBe(400);
    expect(u.body.error).toBe('Unsupported unit: stone. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain');
    expect(streamHub().size).toBe(0);
  });

  it("each metal's change carries its split, as spot's: the metal's part at the closing rate, the currency's the rest", async () => {
    // A close recorded in an earlier session while the FX source served the table of 19 August 2024: the closing one.
    const atClose: Record<string, number> = fixture('er-api-latest-USD-2024-08-19.json').rates;
    const now: Record<string, number> = fixture('er-api-latest-USD.json').rates;
    fake.set('fx', { mode: 'ok', fixture: 'er-api-latest-USD-2024-08-19.json' });
    await expect.poll(async () => (await feeds.fx.read()).value?.EUR, { timeout: 10_000 }).toBe(atClose.EUR);
    const today = sessionNow().date;
    let t = Date.now() - 3_600_000;
    while (!(sessionNow(t).open && sessionNow(t).date < today)) t -= 3_600_000;
    const date = sessionNow(t).date;
    // A real recorded gold price as that session's close.
    const p0: number = fixture('goldapi-price-XAU-2026-09-03.json').price;
    await recordServed('gold', { status: 'fresh', value: p0, asOf: t, source: 'upstream', fetchedAt: t });
    expect((await closeFx(date))?.rates.EUR).toBe(atClose.EUR);
    fake.set('fx', { mode: 'ok' });

    const { sse } = await connect('?currency=EUR');
    const block = await sse!.next((b) => {
      const e = b.event === 'price' ? JSON.parse(b.data!) : null;
      return e?.fx_rate === now.EUR && e.metals.gold.previous_close_date === date && e.metals.gold.from_metal !== null;
    }, 15_000);
    const e = PriceEvent.parse(JSON.parse(block.data!));
    const gold = e.metals.gold;
    const p1 = gold.usd_oz!;
    const round = (v: number, dp: number) => (Math.sign(v) * Math.round(Math.abs(v) * 10 ** dp * (1 + Number.EPSILON))) / 10 ** dp;
    expect(gold.change).toBe(round(round(p1 * now.EUR, 2) - round(p0 * atClose.EUR, 2), 2));
    expect(gold.from_metal).toEqual({ amount: round((p1 - p0) * atClose.EUR, 2), pct: round((p1 / p0 - 1) * 100, 2) });
    expect(round(gold.from_metal!.amount + gold.from_currency!.amount, 2)).toBe(gold.change);
    expect(round(gold.from_metal!.pct + gold.from_currency!.pct, 2)).toBe(e.change_pct.gold);
    expect(Math.abs(gold.from_currency!.amount - p1 * (now.EUR - atClose.EUR))).toBeLessThanOrEqual(0.015 + 1e-9);
    // The same figures as spot's change at the same price.
    const s = await spotOf('currency=EUR');
    expect(s.spot_usd_oz).toBe(p1);
    expect(s.change).toMatchObject({ change: gold.change, from_metal: gold.from_metal, from_currency: gold.from_currency, fx_basis: 'close' });
    // A price page's script writes the split from the event as the server wrote it from spot (site/price-figures.ts).
    const words = { t: STRINGS.en, p: PAGE_STRINGS.en, lang: 'en', locale: 'en' };
    const served = figuresOfSpot(s, 'gold', 'oz');
    const live = figuresOfEvent(e, { ...served, change: null, parts: null });
    expect(textsOf(live, words, Date.now()).why).toBe(textsOf(served, words, Date.now()).why);
    expect(textsOf(live, words, Date.now()).why).toContain('from the Euro’s rise against the dollar');
    // In USD the whole change is the metal's.
    const usd = await connect('?currency=USD');
    const u = PriceEvent.parse(JSON.parse((await usd.sse!.next((b) => b.event === 'price')).data!)).metals.gold;
    expect(u.from_metal).toEqual({ amount: u.change, pct: (await spotOf('currency=USD')).change.change_pct });
    expect(u.from_currency).toEqual({ amount: 0, pct: 0 });
    await closeAll();
  });

  it('HEAD and OPTIONS answer as every route; other methods 405', async () => {
    const head = await stream.GET(new Request('http://t/api/v1/stream', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(head.body).toBeNull();
    expect(streamHub().size).toBe(0);
    expect((await stream.OPTIONS(new Request('http://t/api/v1/stream', { method: 'OPTIONS' }))).status).toBe(204);
    const post = await stream.POST(new Request('http://t/api/v1/stream', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
