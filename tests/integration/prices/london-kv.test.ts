import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import { fixtureBars } from '../../support/bars';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// The London-time values (decisions §30) on two instances sharing one KV (a real redis-server behind the Upstash
// REST bridge): each instance is the recorder loaded afresh with its own process state and store handle. Whichever
// serves a reading of 15:00's window first records it; the other's reading of the same window, later or at the same
// moment, records nothing; one value per metal, time and date. Prices are real: the broker's daily rows in
// tests/fixtures.

type London = typeof import('@/lib/prices/london-recording');
const SLOTS = [Symbol.for('goldapi.store'), Symbol.for('goldapi.london')];
const g = globalThis as Record<symbol, unknown>;
interface Instance {
  london: London;
  globals: unknown[];
}

let redis: RedisServer;
let bridge: UpstashBridge;
let a: Instance;
let b: Instance;

async function instance(): Promise<Instance> {
  for (const s of SLOTS) delete g[s];
  vi.resetModules();
  const london = await import('@/lib/prices/london-recording');
  (await import('@/lib/store')).getStore();
  return { london, globals: SLOTS.map((s) => g[s]) };
}

/** London time on Tuesday 24 November 2026 (GMT). */
const gmt = (date: string, hhmmss: string) => Date.parse(`${date}T${hhmmss}Z`);
const fresh = (value: number, fetchedAt: number): Reading<number> => ({ status: 'fresh', value, asOf: fetchedAt, source: 'upstream', fetchedAt });

/** `on` serves a reading taken at `taken`; resolves when its writes are done. */
async function serve(on: Instance, price: number, taken: number): Promise<void> {
  SLOTS.forEach((s, i) => (g[s] = on.globals[i]));
  await on.london.recordLondon('gold', fresh(price, taken));
}

async function values(series: string) {
  SLOTS.forEach((s, i) => (g[s] = a.globals[i]));
  const { getStore } = await import('@/lib/store');
  const { londonValues } = await import('@/lib/store/london-values');
  return (await londonValues(getStore(), series)).values;
}

beforeAll(async () => {
  redis = await RedisServer.start();
  bridge = await UpstashBridge.start(redis.url);
  Object.assign(process.env, bridge.env());
  delete process.env.MARKET_CLOCK_OFFSET_S;
  a = await instance();
  b = await instance();
});
afterAll(async () => {
  await bridge?.close();
  await redis?.stop();
});

describe('two instances on one KV', () => {
  const [day] = fixtureBars(['2026-03-09']);

  it('the first reading of the window is the value, once: the other instance’s later reading records nothing', async () => {
    await serve(a, day.o, gmt('2026-11-24', '15:00:05'));
    await serve(b, day.c, gmt('2026-11-24', '15:00:40'));
    // A again, with a reading later still: its process knows the date is done.
    await serve(a, day.h, gmt('2026-11-24', '15:01:10'));
    expect(await values('london:xau:pm')).toEqual([{ d: '2026-11-24', p: day.o, t: gmt('2026-11-24', '15:00:05') }]);
    // Written once: the record counts one reading.
    const { getStore } = await import('@/lib/store');
    expect((await getStore().bars('london:xau:pm', '2026-11-24', '2026-11-24'))[0]).toMatchObject({ n: 1 });
  });

  it('two readings of the same window served at the same moment: one value, from one of them', async () => {
    await Promise.all([serve(a, day.l, gmt('2026-11-25', '10:30:02')), serve(b, day.h, gmt('2026-11-25', '10:30:03'))]);
    const am = await values('london:xau:am');
    expect(am).toHaveLength(1);
    expect(am[0].d).toBe('2026-11-25');
    expect([day.l, day.h]).toContain(am[0].p);
    // The store holds it as one reading (an atomic record counting each write).
    SLOTS.forEach((s, i) => (g[s] = b.globals[i]));
    const { getStore } = await import('@/lib/store');
    expect((await getStore().bars('london:xau:am', '2026-11-25', '2026-11-25'))[0]).toMatchObject({ n: 1 });
  });

  it('a failed write leaves the date open: the next reading of the window is recorded', async () => {
    SLOTS.forEach((s, i) => (g[s] = a.globals[i]));
    const { getStore } = await import('@/lib/store');
    const store = getStore();
    const real = store.foldBar.bind(store);
    store.foldBar = async () => {
      throw new Error('ERR a refused write');
    };
    const warn = console.warn;
    console.warn = () => {};
    try {
      await serve(a, day.o, gmt('2026-11-26', '15:00:01'));
    } finally {
      store.foldBar = real;
      console.warn = warn;
    }
    expect((await values('london:xau:pm')).map((v) => v.d)).not.toContain('2026-11-26');
    await serve(b, day.c, gmt('2026-11-26', '15:00:31'));
    expect((await values('london:xau:pm')).find((v) => v.d === '2026-11-26')).toEqual({
      d: '2026-11-26',
      p: day.c,
      t: gmt('2026-11-26', '15:00:31'),
    });
  });
});
