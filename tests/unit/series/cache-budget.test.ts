import { describe, expect, it } from 'vitest';
import { ByteBudget, pointsBytes } from '@/lib/series/cache-budget';

// The one byte budget of the history caches (decisions §29): a least-recently-used store charged in bytes.

/** A key of `n` characters, so two entries differ only in what they are charged. */
const key = (name: string) => name.padEnd(8, '.');

describe('the byte budget', () => {
  it('charges each entry what it is said to cost: two entries differing by 2,000 bytes differ by 2,000 in the count', () => {
    const b = new ByteBudget(1 << 20);
    expect(b.bytes).toBe(0);
    b.set(key('a'), 'a', 1000);
    const one = b.bytes;
    expect(one).toBeGreaterThanOrEqual(1000);
    b.set(key('b'), 'b', 3000);
    expect(b.bytes - one - one).toBe(2000);
    // Setting a key again replaces its charge, it does not add to it.
    b.set(key('a'), 'a2', 500);
    expect(b.bytes).toBe(one - 500 + one + 2000);
    expect(b.size).toBe(2);
  });

  it('lets the least recently used go first, a read counting as a use', () => {
    const b = new ByteBudget(10_000);
    for (const k of ['a', 'b', 'c']) b.set(key(k), k, 2500);
    expect(b.get(key('a'))).toBe('a'); // a is now the most recent: b is the oldest
    b.set(key('d'), 'd', 2500);
    expect(b.get(key('b'))).toBeUndefined();
    expect([b.get(key('a')), b.get(key('c')), b.get(key('d'))]).toEqual(['a', 'c', 'd']);
    b.set(key('e'), 'e', 2500); // read in the order a, c, d: a is now the oldest
    expect(b.get(key('a'))).toBeUndefined();
    expect([b.get(key('c')), b.get(key('d')), b.get(key('e'))]).toEqual(['c', 'd', 'e']);
  });

  it('never counts more than its budget, whatever is put in, and holds nothing larger than it', () => {
    const max = 64 * 1024;
    const b = new ByteBudget(max);
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 5000; i++) {
      b.set(`k${next() % 400}`, i, next() % 9000);
      expect(b.bytes).toBeLessThanOrEqual(max);
    }
    expect(b.bytes).toBeGreaterThan(max / 2);
    b.set('huge', 'x', max + 1);
    expect(b.get('huge')).toBeUndefined();
    expect(b.bytes).toBeLessThanOrEqual(max);
  });

  it('take makes a value once while held, and again, equal, after the budget let it go', () => {
    const b = new ByteBudget(10_000);
    let made = 0;
    const make = () => {
      made++;
      return Array.from({ length: 50 }, (_, i) => ({ d: `2020-01-${String(i + 1).padStart(2, '0')}`, c: i * 1.5 }));
    };
    const first = b.take('series', make, (v) => pointsBytes(v));
    expect(b.take('series', make, (v) => pointsBytes(v))).toBe(first);
    expect(made).toBe(1);
    // Others push it out.
    for (let i = 0; i < 10; i++) b.set(`other${i}`, i, 2000);
    expect(b.get('series')).toBeUndefined();
    const again = b.take('series', make, (v) => pointsBytes(v));
    expect(made).toBe(2);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('charges a list of points by its length and the fields of its points', () => {
    const one = pointsBytes([{ d: 'x', c: 1 }]);
    expect(pointsBytes(Array.from({ length: 100 }, () => ({ d: 'x', c: 1 })))).toBe(100 * one);
    // More fields cost more; nothing costs nothing.
    expect(pointsBytes([{ d: 'x', c: 1, h: 2, l: 3, fx: 4, fx_d: 'y' }])).toBeGreaterThan(one);
    expect(pointsBytes([])).toBeGreaterThan(0);
  });
});

describe('a budget of 0', () => {
  it('holds nothing and makes every value afresh', () => {
    const b = new ByteBudget(0);
    let made = 0;
    const make = () => ({ n: ++made });
    expect(b.take('k', make, () => 10)).toEqual({ n: 1 });
    expect(b.take('k', make, () => 10)).toEqual({ n: 2 });
    expect(b.get('k')).toBeUndefined();
    expect([b.bytes, b.size]).toEqual([0, 0]);
  });
});
