import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_REMOVALS, type DailyBar, type Store } from '@/lib/store';
import { sleep } from './expect';

/** One way to open a backend: each call of `make` gives a fresh, empty store that can be reopened. */
export interface Backend {
  open(): Store;
  reopen(): Store;
}

/**
 * One contract, every backend: tests/unit/store/store.test.ts runs it on the embedded store,
 * tests/integration/store/store.test.ts on a real redis-server, over Upstash's REST protocol (the bridge) and over TCP.
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

    it('setIfNewer: a closing FX table is replaced only by a newer one, also from another handle', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      const table = (as_of: number, eur: number) => ({ as_of, rates: { EUR: eur } });
      expect(await store.setIfNewer('barfx:2026-11-18', table(2000, 0.92), 60)).toBe(true);
      expect(await other.setIfNewer('barfx:2026-11-18', table(1000, 0.9), 60)).toBe(false);
      expect(await other.setIfNewer('barfx:2026-11-18', table(2000, 0.91), 60)).toBe(false);
      expect(await store.get('barfx:2026-11-18')).toEqual(table(2000, 0.92));
      expect(await other.setIfNewer('barfx:2026-11-18', table(3000, 0.93), 60)).toBe(true);
      expect(await store.get('barfx:2026-11-18')).toEqual(table(3000, 0.93));
      // Racing writers: whatever the order, the newest stays.
      await Promise.all([4100, 4500, 4300, 4200].map((t, i) => (i % 2 ? store : other).setIfNewer('barfx:race', table(t, t / 1e4), 60)));
      expect(await store.get('barfx:race')).toEqual(table(4500, 0.45));
      // A table kept by plain set is compared all the same, whatever its key order; a value with no as_of is replaced.
      await store.set('barfx:kept', { rates: { EUR: 0.8 }, as_of: 5000 });
      expect(await store.setIfNewer('barfx:kept', table(4000, 0.9), 60)).toBe(false);
      await store.set('barfx:odd', 'not a table');
      expect(await store.setIfNewer('barfx:odd', table(1, 0.9), 60)).toBe(true);
    });

    it('setIfAbsent: the first value written stays, also against racing writers on another handle', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      const pair = (n: number) => ({ publicKey: `pub-${n}`, privateKey: `key-${n}` });
      expect(await store.setIfAbsent('alerts:vapid', pair(1), 60)).toBe(true);
      expect(await other.setIfAbsent('alerts:vapid', pair(2), 60)).toBe(false);
      expect(await other.get('alerts:vapid')).toEqual(pair(1));
      // Racing writers: exactly one wins, and the value held is the winner's.
      const won = await Promise.all([3, 4, 5, 6].map((n, i) => (i % 2 ? store : other).setIfAbsent('race', pair(n), 60)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store.get('race')).toEqual(pair(3 + won.indexOf(true)));
      // A value kept by plain set counts as held.
      await store.set('kept', 'x');
      expect(await other.setIfAbsent('kept', 'y', 60)).toBe(false);
      expect(await other.get('kept')).toBe('x');
    });

    it('counts: buckets of named counts add up across handles, racing adds lose none, buckets expire', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.counts(['none'])).toEqual([{}]);
      await store.addCounts('outcomes:a', { '5.ok': 1, 'h0.b2': 1 }, 60);
      await other.addCounts('outcomes:a', { '5.ok': 2, '5.http': 1 }, 60);
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).addCounts('outcomes:b', { n: 1 }, 60)));
      expect(await other.counts(['outcomes:a', 'none', 'outcomes:b'])).toEqual([{ '5.ok': 3, 'h0.b2': 1, '5.http': 1 }, {}, { n: 10 }]);
      await store.addCounts('short', { n: 1 }, 1);
      await sleep(1100);
      expect(await store.counts(['short'])).toEqual([{}]);
    });

    it('expires values with a TTL; an expired table is replaced by any, an expired value by setIfAbsent', async () => {
      const { store } = setup();
      await store.set('short', 'x', 1);
      expect(await store.setIfNewer('fx', { as_of: 2000 }, 1)).toBe(true);
      expect(await store.setIfAbsent('once', 'first', 1)).toBe(true);
      expect(await store.get('short')).toBe('x');
      await sleep(1100);
      expect(await store.get('short')).toBeNull();
      expect(await store.get('fx')).toBeNull();
      expect(await store.setIfNewer('fx', { as_of: 1000 }, 60)).toBe(true);
      expect(await store.get('fx')).toEqual({ as_of: 1000 });
      expect(await store.setIfAbsent('once', 'second', 60)).toBe(true);
      expect(await store.get('once')).toBe('second');
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
      // A 5 s window, timed from the first increment's answer, with seconds of slack either side for a loaded
      // machine (a 2 s window with 0.8 s of slack missed once with a core kept busy): asked again 2.5 s in, still
      // counting; then past the 5 s but well before the 7.5 s a window extended by that second increment would last.
      const until = (t: number) => sleep(Math.max(0, t - Date.now()));
      const t0 = Date.now();
      expect(await store.incr('rl:w', 5)).toBe(1);
      const first = Date.now();
      await until(t0 + 2500);
      expect(await store.incr('rl:w', 5)).toBe(2);
      await until(first + 5500);
      expect(await store.incr('rl:w', 5)).toBe(1);
    });

    it('incr adds a whole batch at once and gives it back, across handles', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.incr('rl:batch', 60, 100)).toBe(100);
      expect(await other.incr('rl:batch', 60)).toBe(101);
      expect(await other.incr('rl:batch', 60, 30)).toBe(131);
      expect(await store.incr('rl:batch', 60, -30)).toBe(101);
    });

    it('a released claim is won again at once, from another handle too', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.claim('sample:xag:7', 60)).toBe(true);
      expect(await other.claim('sample:xag:7', 60)).toBe(false);
      await store.release('sample:xag:7');
      expect(await other.claim('sample:xag:7', 60)).toBe(true);
      expect(await store.claim('sample:xag:7', 60)).toBe(false);
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

    it('daily bars: open, high, low, close and count from a sequence across two sessions; they survive reopening', async () => {
      const { backend, store } = setup();
      const t = Date.parse('2026-11-17T15:00:00Z');
      const day1 = [4100.5, 4130.25, 4090.75, 4111];
      const day2 = [4120, 4099.5, 4140.125];
      for (const [i, p] of day1.entries()) await store.foldBar('daily:xau', '2026-11-17', t + i * 120_000, p);
      for (const [i, p] of day2.entries()) await store.foldBar('daily:xau', '2026-11-18', t + 86_400_000 + i * 120_000, p);
      await store.foldBar('daily:xag', '2026-11-18', t, 52.5);
      await store.close();
      opened.pop();
      const again = backend.reopen();
      opened.push(again);
      const bars = await again.bars('daily:xau', '2026-01-01', '2026-12-31');
      expect(bars.map(({ d, o, h, l, c, n, origin }) => ({ d, o, h, l, c, n, origin }))).toEqual([
        { d: '2026-11-17', o: 4100.5, h: 4130.25, l: 4090.75, c: 4111, n: 4, origin: 'recorded' },
        { d: '2026-11-18', o: 4120, h: 4140.125, l: 4099.5, c: 4140.125, n: 3, origin: 'recorded' },
      ]);
      expect((await again.bars('daily:xag', '2026-11-18', '2026-11-18')).map((b) => b.c)).toEqual([52.5]);
    });

    it('daily bars: the same observation twice counts once; an earlier one arriving late sets the open, not the close', async () => {
      const { store } = setup();
      expect(await store.foldBar('b', '2026-11-18', 2000, 10)).toMatchObject({ o: 10, c: 10, n: 1 });
      expect(await store.foldBar('b', '2026-11-18', 2000, 10)).toMatchObject({ n: 1 });
      expect(await store.foldBar('b', '2026-11-18', 1000, 9)).toMatchObject({ o: 9, h: 10, l: 9, c: 10, n: 2, t0: 1000, t1: 2000 });
      expect(await store.foldBar('b', '2026-11-18', 3000, 11)).toMatchObject({ o: 9, h: 11, l: 9, c: 11, n: 3, t0: 1000, t1: 3000 });
    });

    const imported = (d: string, c: number): DailyBar => ({ d, o: c, h: c + 5, l: c - 5, c, n: 0, origin: 'imported', t0: 0, t1: 0 });

    it('daily bars: an import never overwrites a recorded bar; a recorded price replaces an imported bar', async () => {
      const { store } = setup();
      await store.foldBar('b', '2026-11-18', 1000, 4000);
      await store.foldBar('b', '2026-11-20', 1000, 4100);
      const file = [imported('2026-11-17', 3900), imported('2026-11-18', 3000), imported('2026-11-19', 3910), imported('2026-11-20', 3020)];
      expect(await store.importBars('b', file)).toEqual({ written: 2, kept: ['2026-11-18', '2026-11-20'] });
      // An imported bar gives way to a later import of its date.
      expect(await store.importBars('b', [imported('2026-11-17', 3950)])).toEqual({ written: 1, kept: [] });
      expect(await store.importBars('b', [])).toEqual({ written: 0, kept: [] });
      const [prev, rec, next] = await store.bars('b', '2026-11-01', '2026-11-30');
      expect(prev).toEqual(imported('2026-11-17', 3950));
      expect(rec).toMatchObject({ d: '2026-11-18', c: 4000, origin: 'recorded' });
      expect(next).toEqual(imported('2026-11-19', 3910));
      expect(await store.foldBar('b', '2026-11-17', 5000, 3990)).toMatchObject({ o: 3990, h: 3990, l: 3990, n: 1, origin: 'recorded' });
    });

    it('daily bars: ten years of sessions import in one call, in date order, beside the recorded bars', async () => {
      const { store } = setup();
      // About 2,600 weekdays: the size of a full file at the retention.
      const days = Array.from({ length: 3650 }, (_, i) => new Date(Date.UTC(2016, 11, 1) + i * 86_400_000).toISOString().slice(0, 10));
      const weekdays = days.filter((d) => ![0, 6].includes(new Date(d).getUTCDay()));
      const file = weekdays.map((d, i) => imported(d, 1000 + i / 4));
      await store.foldBar('b', weekdays[1000], 1000, 1300);
      expect(await store.importBars('b', file)).toEqual({ written: file.length - 1, kept: [weekdays[1000]] });
      const all = await store.bars('b', '0000-01-01', '9999-12-31');
      expect(all.map((b) => b.d)).toEqual(weekdays);
      expect(all.filter((b) => b.origin === 'recorded').map((b) => b.d)).toEqual([weekdays[1000]]);
      expect(all[2000]).toEqual(file[2000]);
      // The whole series in one read, the same bars in the same order.
      expect((await store.allBars('b')).bars).toEqual(all);
    });

    it('daily bars: the version moves with every change (fold, import, trim), the epoch only with imports and trims', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.barsVersion('b')).toEqual({ version: 0, epoch: 0 });
      expect(await store.allBars('b')).toEqual({ at: { version: 0, epoch: 0 }, bars: [] });
      const start = Date.now();
      await store.foldBar('b', '2026-11-18', 1000, 10);
      const folded = await other.barsVersion('b');
      expect(folded.version).toBeGreaterThanOrEqual(start);
      expect(folded.epoch).toBe(0);
      // The same observation again (another instance folding the same reading) changes no bar, so no version.
      await other.foldBar('b', '2026-11-18', 1000, 10);
      expect(await store.barsVersion('b')).toEqual(folded);
      await other.foldBar('b', '2026-11-18', 2000, 11);
      const refolded = await store.barsVersion('b');
      expect(refolded.version).toBeGreaterThan(folded.version);
      expect(refolded.epoch).toBe(0);
      // An import moves both; one whose every date holds a recorded bar writes nothing and moves nothing.
      await store.importBars('b', [imported('2026-11-17', 9)]);
      const importedAt = await other.barsVersion('b');
      expect(importedAt.version).toBeGreaterThan(refolded.version);
      expect(importedAt.epoch).toBeGreaterThanOrEqual(start);
      expect(await other.importBars('b', [imported('2026-11-18', 9)])).toEqual({ written: 0, kept: ['2026-11-18'] });
      expect(await store.barsVersion('b')).toEqual(importedAt);
      // A trim that removes nothing moves nothing; one that removes a bar moves both.
      expect(await store.trimBars('b', '2026-01-01')).toBe(0);
      expect(await store.barsVersion('b')).toEqual(importedAt);
      expect(await other.trimBars('b', '2026-11-18')).toBe(1);
      const trimmed = await store.barsVersion('b');
      expect(trimmed.version).toBeGreaterThan(importedAt.version);
      expect(trimmed.epoch).toBeGreaterThan(importedAt.epoch);
      // The whole series with the version it stands at, from either handle.
      expect(await other.allBars('b')).toEqual({
        at: trimmed,
        bars: [{ d: '2026-11-18', o: 10, h: 11, l: 10, c: 11, n: 2, origin: 'recorded', t0: 1000, t1: 2000 }],
      });
      // Writes closer together than a millisecond still move it each time, and only up.
      const versions: number[] = [];
      for (let i = 0; i < 20; i++) {
        await (i % 2 ? store : other).foldBar('b', '2026-11-19', 3000 + i, 12 + i);
        versions.push((await store.barsVersion('b')).version);
      }
      expect(versions.every((v, i) => i === 0 || v > versions[i - 1])).toBe(true);
      expect((await store.barsVersion('other-series')).version).toBe(0);
    });

    it('daily bars: date windows, the newest n, trimming', async () => {
      const { store } = setup();
      for (const d of ['2016-01-04', '2025-12-31', '2026-11-16', '2026-11-17', '2026-11-18']) await store.foldBar('b', d, 1, 100);
      const dates = async (from: string, to: string, last?: number) => (await store.bars('b', from, to, last)).map((b) => b.d);
      expect(await dates('2026-11-16', '2026-11-17')).toEqual(['2026-11-16', '2026-11-17']);
      expect(await dates('0000-01-01', '2026-11-17', 1)).toEqual(['2026-11-17']);
      expect(await dates('0000-01-01', '2026-11-18', 2)).toEqual(['2026-11-17', '2026-11-18']);
      expect(await dates('2027-01-01', '2027-12-31')).toEqual([]);
      expect(await store.trimBars('b', '2016-11-18')).toBe(1);
      expect(await dates('0000-01-01', '9999-12-31')).toEqual(['2025-12-31', '2026-11-16', '2026-11-17', '2026-11-18']);
    });

    it('daily bars: two handles folding hundreds of interleaved prices at once keep the true max, min, open, close and count', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      // Prices from a fixed pseudo-random walk, each observed at its own millisecond.
      let x = 4000;
      const prices = Array.from({ length: 400 }, (_, i) => (x += ((i * 7919) % 23) - 11 + (i % 3) / 4));
      await Promise.all(prices.map((p, i) => (i % 2 ? store : other).foldBar('daily:xau', '2026-11-18', 10_000 + i, p)));
      const [bar] = await store.bars('daily:xau', '2026-11-18', '2026-11-18');
      expect(bar).toMatchObject({ o: prices[0], c: prices[prices.length - 1], h: Math.max(...prices), l: Math.min(...prices), n: prices.length });
    });

    it('documents: put, get, delete, read whole, and a version that moves with every change, seen from another handle', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.docsVersion('alerts')).toBe(0);
      expect(await store.docs('alerts')).toEqual({ version: 0, docs: [] });
      expect(await store.getDoc('alerts', 'a')).toBeNull();
      await store.putDoc('alerts', 'a', { id: 'a', level: 140.5, label: 'Zürich — 金' });
      await other.putDoc('alerts', 'b', { id: 'b', level: 2 });
      await store.putDoc('other', 'a', { id: 'elsewhere' });
      const v1 = await other.docsVersion('alerts');
      expect(v1).toBeGreaterThan(0);
      expect(await other.getDoc('alerts', 'a')).toEqual({ id: 'a', level: 140.5, label: 'Zürich — 金' });
      const all = await store.docs<{ id: string }>('alerts');
      expect(all.version).toBe(v1);
      expect(all.docs.map((d) => d.id).sort()).toEqual(['a', 'b']);
      await store.putDoc('alerts', 'a', { id: 'a', level: 141 });
      const v2 = await store.docsVersion('alerts');
      expect(v2).toBeGreaterThan(v1);
      expect(await other.getDoc('alerts', 'a')).toEqual({ id: 'a', level: 141 });
      expect(await other.deleteDoc('alerts', 'a')).toBe(true);
      expect(await other.deleteDoc('alerts', 'a')).toBe(false);
      expect(await store.docsVersion('alerts')).toBeGreaterThan(v2);
      expect((await store.docs<{ id: string }>('alerts')).docs.map((d) => d.id)).toEqual(['b']);
      expect(await store.getDoc('other', 'a')).toEqual({ id: 'elsewhere' });
    });

    it('documents: docsSince gives what was written and removed after a version, and null for a version ahead of the store', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.docsSince('alerts', 0)).toEqual({ version: 0, docs: [], removed: [] });
      await store.putDoc('alerts', 'a', { id: 'a', n: 1 });
      await store.putDoc('alerts', 'b', { id: 'b', n: 1 });
      const v1 = await store.docsVersion('alerts');
      expect(await other.docsSince('alerts', v1)).toEqual({ version: v1, docs: [], removed: [] });
      await other.putDoc('alerts', 'a', { id: 'a', n: 2 });
      await other.putDoc('alerts', 'c', { id: 'c', n: 1 });
      await other.deleteDoc('alerts', 'b');
      const since = await store.docsSince<{ id: string; n: number }>('alerts', v1);
      expect(since!.version).toBe(await store.docsVersion('alerts'));
      expect(since!.docs.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { id: 'a', n: 2 },
        { id: 'c', n: 1 },
      ]);
      expect(since!.removed).toEqual(['b']);
      // Written again after its removal: a document again, no longer removed.
      await store.putDoc('alerts', 'b', { id: 'b', n: 3 });
      const again = await other.docsSince<{ id: string }>('alerts', since!.version);
      expect(again).toEqual({ version: since!.version + 1, docs: [{ id: 'b', n: 3 }], removed: [] });
      expect(await store.docsSince('alerts', again!.version + 100)).toBeNull();
    });

    it('documents: only the latest KEPT_REMOVALS removals are remembered; a reader behind them reads the whole collection', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      await store.putDoc('jobs', 'kept', { id: 'kept' });
      const start = await store.docsVersion('jobs');
      const ids = Array.from({ length: KEPT_REMOVALS + 3 }, (_, i) => `j${i}`);
      await Promise.all(ids.map((id, i) => (i % 2 ? store : other).putDoc('jobs', id, { id })));
      // The three oldest removals, one after another, then the rest at once from both handles.
      const at: number[] = [];
      for (const id of ids.slice(0, 3)) {
        expect(await store.deleteDoc('jobs', id)).toBe(true);
        at.push(await store.docsVersion('jobs'));
      }
      const rest = ids.slice(3);
      await Promise.all(rest.map((id, i) => (i % 2 ? store : other).deleteDoc('jobs', id)));
      // Past the three oldest removals, nothing was forgotten: the latest KEPT_REMOVALS, exactly.
      const since = await other.docsSince<{ id: string }>('jobs', at[2]);
      expect(since!.removed.sort()).toEqual([...rest].sort());
      expect(since!.docs).toEqual([]);
      // A reader that missed a forgotten removal is told to read the whole collection, which holds what is left.
      expect(await store.docsSince('jobs', at[1])).toBeNull();
      expect(await store.docsSince('jobs', start)).toBeNull();
      expect(await store.docs('jobs')).toEqual({ version: await store.docsVersion('jobs'), docs: [{ id: 'kept' }] });
      // Documents written later are followed from a version past the floor as before.
      const now = await store.docsVersion('jobs');
      await store.putDoc('jobs', 'later', { id: 'later' });
      expect(await other.docsSince('jobs', now)).toEqual({ version: now + 1, docs: [{ id: 'later' }], removed: [] });
    });

    it('documents: putDocIf writes only onto the revision read; a removed document is never brought back', async () => {
      const { backend, store } = setup();
      const other = backend.reopen();
      opened.push(other);
      expect(await store.getDocRev('alerts', 'a')).toBeNull();
      expect(await store.putDocIf('alerts', 'a', { n: 1 }, 0)).toBe(false);
      expect(await store.getDoc('alerts', 'a')).toBeNull();
      await store.putDoc('alerts', 'a', { n: 1 });
      const r1 = (await other.getDocRev<{ n: number }>('alerts', 'a'))!;
      expect(r1.doc).toEqual({ n: 1 });
      // Two handles read the same revision: the first write wins, the second writes nothing and sees the first's.
      expect(await other.putDocIf('alerts', 'a', { n: 2 }, r1.rev)).toBe(true);
      expect(await store.putDocIf('alerts', 'a', { n: 3 }, r1.rev)).toBe(false);
      const r2 = (await store.getDocRev<{ n: number }>('alerts', 'a'))!;
      expect(r2.doc).toEqual({ n: 2 });
      expect(r2.rev).toBeGreaterThan(r1.rev);
      // The write moved the collection's version and is seen by docsSince, as putDoc's are.
      expect(await store.docsVersion('alerts')).toBe(r2.rev);
      expect((await other.docsSince('alerts', r1.rev))!.docs).toEqual([{ n: 2 }]);
      // Removed after the read: the write that finishes later brings nothing back.
      expect(await other.deleteDoc('alerts', 'a')).toBe(true);
      expect(await store.putDocIf('alerts', 'a', { n: 4 }, r2.rev)).toBe(false);
      expect(await store.getDoc('alerts', 'a')).toBeNull();
      expect(await store.getDocRev('alerts', 'a')).toBeNull();
      expect((await store.docs('alerts')).docs).toEqual([]);
      expect((await store.docsSince('alerts', r2.rev))!.removed).toEqual(['a']);
      // Racing writers on one revision: exactly one wins.
      await store.putDoc('alerts', 'b', { n: 0 });
      const rb = (await store.getDocRev<{ n: number }>('alerts', 'b'))!;
      const won = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? store : other).putDocIf('alerts', 'b', { n: i + 1 }, rb.rev)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store.getDoc('alerts', 'b')).toEqual({ n: won.indexOf(true) + 1 });
    });
  });
}
