import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '@/lib/store';
import { sleep } from './expect';

/** One way to open a backend: each call of `make` gives a fresh, empty store that can be reopened. */
export interface Backend {
  open(): Store;
  reopen(): Store;
}

/**
 * One contract, every backend: tests/unit/store.test.ts runs it on the embedded store,
 * tests/store.test.ts on KV through redis-server.
 */
export function storeContract(name: string, make: () => Backend): void {
  describe(`store contract: ${name}`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    const setup = () => {
      const backend = make();
      const store = backend.open();
      opened.push(store);
      return { backend, store };
    };

    it('keeps JSON values and survives reopening', async () => {
      const { backend, store } = setup();
      expect(await store.get('missing')).toBeNull();
      await store.set('last:gold', { value: 4392, asOf: 1, fetchedAt: 2 });
      await store.close();
      opened.pop();
      const again = backend.reopen();
      opened.push(again);
      expect(await again.get('last:gold')).toEqual({ value: 4392, asOf: 1, fetchedAt: 2 });
    });

    it('keeps any JSON: UTF-8 text, numbers, arrays, nested objects, overwrites', async () => {
      const { store } = setup();
      const value = { label: 'Zürich — 金 ✓ "quoted"', n: 0.1 + 0.2, list: [1, 'OK', null], nested: { ok: true } };
      await store.set('v', value);
      expect(await store.get('v')).toEqual(value);
      await store.set('v', 'OK');
      expect(await store.get('v')).toBe('OK');
      await store.set('v', 42);
      expect(await store.get('v')).toBe(42);
    });

    it('expires values with a TTL', async () => {
      const { store } = setup();
      await store.set('short', 'x', 1);
      expect(await store.get('short')).toBe('x');
      await sleep(1100);
      expect(await store.get('short')).toBeNull();
    });

    it('claim: exactly one of many concurrent callers wins, again after expiry', async () => {
      const { store } = setup();
      const wins = await Promise.all(Array.from({ length: 20 }, () => store.claim('sample:xau:1', 1)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      await sleep(1100);
      expect(await store.claim('sample:xau:1', 1)).toBe(true);
    });

    it('claim is shared between two handles on one store', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.claim('k', 60)).toBe(true);
      expect(await other.claim('k', 60)).toBe(false);
    });

    it('incr counts within a window and restarts after it', async () => {
      const { store } = setup();
      for (let i = 1; i <= 5; i++) expect(await store.incr('rl:1.2.3.4', 1)).toBe(i);
      await sleep(1100);
      expect(await store.incr('rl:1.2.3.4', 1)).toBe(1);
    });

    it("incr's window starts at the first increment; later increments do not extend it", async () => {
      const { store } = setup();
      expect(await store.incr('rl:w', 2)).toBe(1);
      await sleep(1200);
      expect(await store.incr('rl:w', 2)).toBe(2);
      await sleep(1000);
      expect(await store.incr('rl:w', 2)).toBe(1);
    });

    it('incr from two handles at once counts every increment exactly once', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? store : other).incr('rl:shared', 60)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    });

    it('two handles writing a point at the same t leave one point', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      await Promise.all([store.addPoint('s', { t: 1000, p: 1 }), other.addPoint('s', { t: 1000, p: 2 })]);
      const points = await store.range('s', 0, 2000);
      expect(points).toHaveLength(1);
      expect([1, 2]).toContain(points[0].p);
    });

    it('series: window reads, ordering, replacement at equal t, trimming', async () => {
      const { store } = setup();
      for (const t of [500, 100, 300, 200, 400]) await store.addPoint('intraday:xau', { t, p: t / 100 });
      await store.addPoint('intraday:xag', { t: 300, p: 30 });
      expect(await store.range('intraday:xau', 200, 400)).toEqual([
        { t: 200, p: 2 },
        { t: 300, p: 3 },
        { t: 400, p: 4 },
      ]);
      await store.addPoint('intraday:xau', { t: 300, p: 3.5 });
      expect((await store.range('intraday:xau', 300, 300))[0].p).toBe(3.5);
      expect(await store.trim('intraday:xau', 300)).toBe(2);
      expect((await store.range('intraday:xau', 0, 1000)).map((p) => p.t)).toEqual([300, 400, 500]);
      expect(await store.range('intraday:xag', 0, 1000)).toEqual([{ t: 300, p: 30 }]);
    });
  });
}
