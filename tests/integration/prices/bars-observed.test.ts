import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import type { DailyBar } from '@/lib/store';
import { fixtureBars } from '../../support/bars';
import { FakeUpstream } from '../../support/fake-upstream';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// Sessions by observation time (decisions §25), on two instances sharing one KV (a real redis-server
// behind the Upstash REST bridge) around the daily break of Wednesday 18 November 2026 (the session dated
// the 18th closes at 17:00 New York, the one dated the 19th opens at 18:00). Each instance is the bars
// module loaded afresh with its own process state and store handle; the clock is pinned to the moment
// each reading is served, which is not the moment it was observed (its `fetchedAt`), as happens when one
// instance fetches a price into KV and another serves it first. Prices are real: the broker's daily
// rows in tests/fixtures.

type Bars = typeof import('@/lib/prices/bars');
const SLOTS = [Symbol.for('goldapi.store'), Symbol.for('goldapi.bars')];
const g = globalThis as Record<symbol, unknown>;
interface Instance {
  bars: Bars;
  globals: unknown[];
}

let redis: RedisServer;
let bridge: UpstashBridge;
let fake: FakeUpstream;
let a: Instance;
let b: Instance;

/** A new instance: the bars module and the store opened afresh, with nothing of the other's process state. */
async function instance(): Promise<Instance> {
  for (const s of SLOTS) delete g[s];
  vi.resetModules();
  const bars = await import('@/lib/prices/bars');
  (await import('@/lib/store')).getStore();
  return { bars, globals: SLOTS.map((s) => g[s]) };
}

const ny = (local: string) => Date.parse(`2026-11-18T${local}-05:00`);
const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });

/** `on` serves the price observed at `observed` (New York time) at the moment `served`, and its writes finish. */
async function serve(on: Instance, price: number, observed: string, served: string): Promise<void> {
  SLOTS.forEach((s, i) => (g[s] = on.globals[i]));
  vi.setSystemTime(ny(served));
  await on.bars.recordServed('gold', fresh(price, ny(observed)));
}

async function bar(date: string): Promise<DailyBar | undefined> {
  SLOTS.forEach((s, i) => (g[s] = a.globals[i]));
  const { getStore } = await import('@/lib/store');
  return (await getStore().bars('daily:xau', date, date))[0];
}

beforeAll(async () => {
  redis = await RedisServer.start();
  bridge = await UpstashBridge.start(redis.url);
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), bridge.env());
  delete process.env.MARKET_CLOCK_OFFSET_S;
  vi.useFakeTimers({ toFake: ['Date'] });
  a = await instance();
  b = await instance();
});
afterAll(async () => {
  vi.useRealTimers();
  await fake?.close();
  await bridge?.close();
  await redis?.stop();
});

describe('two instances on KV around 18:00 New York', () => {
  // Real prices of two sessions: the closing one's, and the next one's, whose high is kept for the reading
  // observed in the break, so a weekend or break price stretching the new bar would show.
  const [mon, tue] = fixtureBars(['2026-03-09', '2026-03-10']);

  it('a price observed before 17:00 and served after it lands in the closing session, counted once', async () => {
    await serve(a, mon.o, '16:59:30', '16:59:31');
    // Observed by A at 16:59:55 into KV, served first by B after the close, then by A.
    await serve(b, mon.c, '16:59:55', '17:00:05');
    await serve(a, mon.c, '16:59:55', '17:00:08');
    expect(await bar('2026-11-18')).toMatchObject({
      o: mon.o,
      c: mon.c,
      h: Math.max(mon.o, mon.c),
      l: Math.min(mon.o, mon.c),
      n: 2,
      origin: 'recorded',
      t0: ny('16:59:30'),
      t1: ny('16:59:55'),
    });
  });

  it('a price observed before the open is no session’s, even served after it: never the new session’s open, high or low', async () => {
    // The break's reading is above every price of the new session: had it been folded, the high would show it.
    expect(tue.h).toBeGreaterThan(Math.max(tue.o, tue.l, tue.c));
    // Observed at 17:59:50 (the break), served by B at 18:00:10 and by A at 18:00:12.
    await serve(b, tue.h, '17:59:50', '18:00:10');
    await serve(a, tue.h, '17:59:50', '18:00:12');
    expect(await bar('2026-11-19')).toBeUndefined();
    // The first price observed after the open is the open.
    await serve(a, tue.o, '18:00:20', '18:00:21');
    await serve(b, tue.o, '18:00:20', '18:00:30');
    expect(await bar('2026-11-19')).toMatchObject({ o: tue.o, c: tue.o, h: tue.o, l: tue.o, n: 1, t0: ny('18:00:20') });
    // Nor did the break's reading reach the closing session.
    expect(await bar('2026-11-18')).toMatchObject({ c: mon.c, n: 2 });
  });

  it('n counts each observation once across instances, even one served late between the open and the close', async () => {
    await serve(a, tue.l, '18:01:00', '18:01:01');
    await serve(a, tue.c, '18:02:00', '18:02:01');
    // B serves the 18:01 reading only after A folded the 18:02 one: neither the open's nor the close's observation.
    await serve(b, tue.l, '18:01:00', '18:02:30');
    expect(await bar('2026-11-19')).toMatchObject({
      o: tue.o,
      c: tue.c,
      h: Math.max(tue.o, tue.l, tue.c),
      l: Math.min(tue.o, tue.l, tue.c),
      n: 3,
      t0: ny('18:00:20'),
      t1: ny('18:02:00'),
    });
  });
});
