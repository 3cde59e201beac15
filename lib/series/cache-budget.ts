import { LRUCache } from 'lru-cache';
import { config } from '../core/config';

// One byte budget over every cache of the history answers (decisions §29): the series as answered, their views in
// each currency and unit, the windows cut from them, their periods and the JSON of their points all go through
// one least-recently-used store sized in bytes (a quarter of `SERIES_CACHE_MB`, default 128: see GC_ROOM), so no mix
// of requests can make them hold more. Whatever it lets go is made again from the series on the next request that wants it, the same.
//
// An entry is charged what it keeps alive, estimated from its shape. Heap bytes per point, measured on Node 24 (x64,
// no pointer compression) as `process.memoryUsage().heapUsed` after a full GC (`node --expose-gc`) around 200,000
// points of each shape, divided by 200,000: {d, c} 64; {d, c, h, l} 111; {d, p, t} with a new `t` string 112;
// {d, o, c, h, l, origin, final, n} 160; {d, c, h, l, fx, fx_d} (made as conversion makes it) 168;
// {d, o, c, h, l, days, fx, fx_d} 208 (each with its array slot of 8). A point is charged
// `SLOT_BYTES + POINT_BASE + POINT_FIELD × fields`: 96, 136, 116, 216, 176 and 216 for those, at or above each.
const POINT_BASE = 48;
const POINT_FIELD = 20;
/** One array slot (a pointer), bytes. */
export const SLOT_BYTES = 8;
/** A Buffer's own objects beyond its bytes (its JS object, ArrayBuffer, backing store record), as server/response-cache.mjs counts it. */
const BUFFER_BYTES = 320;
/** What the store spends per key beyond it (map slot, list links, size), and a small object's header. */
const ENTRY_BYTES = 256;

/** The bytes an array of points keeps alive (its slots and the points; the dates they share with the series are not counted). */
export function pointsBytes(points: readonly object[]): number {
  const first = points[0];
  if (!first) return SLOT_BYTES;
  return points.length * (SLOT_BYTES + POINT_BASE + POINT_FIELD * Object.keys(first).length);
}

/** The bytes of a Buffer or Uint8Array of `length` bytes. */
export function bytesOfBuffer(length: number): number {
  return length + BUFFER_BYTES;
}

/** The bytes of a string: two per character, whatever V8 stores (one-byte strings take half: rounded up). */
export function bytesOfString(s: string): number {
  return 2 * s.length + 32;
}

/** A least-recently-used store of values charged in bytes, never holding more than `maxBytes` of them (0: none). */
export class ByteBudget {
  readonly maxBytes: number;
  private readonly lru: LRUCache<string, { value: unknown; bytes: number }> | null;

  constructor(maxBytes: number) {
    this.maxBytes = Math.max(0, Math.floor(maxBytes));
    this.lru =
      this.maxBytes === 0
        ? null
        : new LRUCache({ maxSize: this.maxBytes, sizeCalculation: (e, key) => Math.max(1, Math.ceil(e.bytes) + bytesOfString(key) + ENTRY_BYTES) });
  }

  /** The bytes charged to what is held now: never more than `maxBytes`. */
  get bytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }

  /** How many values are held. */
  get size(): number {
    return this.lru?.size ?? 0;
  }

  /** The value held under `key` (now the most recently used), or undefined. */
  get<V>(key: string): V | undefined {
    return this.lru?.get(key)?.value as V | undefined;
  }

  /**
   * Holds `value` under `key`, charged `bytes` (with the key and the entry's own cost), letting the least recently
   * used go until it fits. A value larger than the whole budget is not held.
   */
  set<V>(key: string, value: V, bytes: number): V {
    this.lru?.set(key, { value, bytes });
    return value;
  }

  /** The value under `key`, made by `make` and held, charged `bytesOf(value)`, when absent. */
  take<V>(key: string, make: () => V, bytesOf: (value: V) => number): V {
    const held = this.lru?.get(key);
    if (held) return held.value as V;
    const value = make();
    return this.set(key, value, bytesOf(value));
  }

  clear(): void {
    this.lru?.clear();
  }
}

/**
 * How much of the process's memory an entry takes for each byte it is charged: `SERIES_CACHE_MB` bounds the RSS the
 * caches add, and they may keep alive a quarter of it. A byte kept alive costs itself, as much again for the garbage V8
 * lets build up before it collects (`npm start`: `--heap-growing-percent=100`, the old generation collected when it has
 * doubled), and what the allocator holds beyond both; the requests themselves add about 50 MiB that no cache setting
 * removes. Measured with `npm run bench -- series-memory` (BENCHMARKS §22d): 40 MiB held added 70–80 MiB of RSS to
 * the same requests' own with the caches off, so a quarter leaves the default 128 room for both.
 */
export const GC_ROOM = 4;

let budget: ByteBudget | null = null;
/** The one budget of the series caches, sized from `SERIES_CACHE_MB` when first used: what they keep alive is at most 1/GC_ROOM of it. */
export function seriesCache(): ByteBudget {
  budget ??= new ByteBudget((config.seriesCacheMb() * 2 ** 20) / GC_ROOM);
  return budget;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
/**
 * A number naming one object for as long as it lives (a series as fetched, a currency's rates array): the part of a
 * cache key that says which version of the data an entry was made from, without keeping that data alive.
 */
export function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = ++nextId));
  return id;
}

// What is made from a kept points list (its JSON, its ETags) is kept beside it in the budget, under the list's key:
// a list made again after the budget let it go finds it, as it is the same. A list cut for one request has no key.
const keyOf = new WeakMap<readonly object[], string>();
export function keep<T>(key: string, points: readonly object[], value: T): T {
  keyOf.set(points, key);
  return value;
}

/**
 * What `make` makes from a kept points list (`part` names it among the list's), held in the budget charged
 * `bytesOf`; undefined for a list cut for one request, which nothing else will ask about.
 */
export function keptFor<T>(points: readonly object[], part: string, make: () => T, bytesOf: (value: T) => number): T | undefined {
  const key = keyOf.get(points);
  return key === undefined ? undefined : seriesCache().take(`${key}|${part}`, make, bytesOf);
}
