import { describe, expect, it } from 'vitest';
import type { Reading } from '@/lib/sources/freshness';
import { choose } from '@/lib/prices/served-price';
import { readQuotes, type Quote } from '@/lib/sources/upstream/quotes';
import { fixture } from '../../support/fake-upstream';

// The choice between the two live sources, from readings built on the recorded bodies.

const goldApi = fixture('goldapi-price-XAU.json');
const goldApiAsOf = Date.parse(goldApi.updatedAt);
const sq = readQuotes('XAU', fixture('swissquote-bboquotes-XAU-USD-2026-08-18.first-entry.json'), Date.parse('2026-08-18T13:30:00Z'));

const primary = (status: 'fresh' | 'stale', value = goldApi.price, asOf = goldApiAsOf): Reading<number> => ({
  status,
  value,
  asOf,
  source: status === 'fresh' ? 'upstream' : 'cache',
  fetchedAt: asOf,
});
const quotes = (status: 'fresh' | 'stale', value: Quote = sq.value, asOf = sq.asOf): Reading<Quote> => ({
  status,
  value,
  asOf,
  source: status === 'fresh' ? 'upstream' : 'cache',
  fetchedAt: asOf,
});
const none = { status: 'unavailable', value: null, asOf: null, source: null, fetchedAt: null } as const;

describe('which source is served', () => {
  it('both fresh and close: the primary, cross-check agree with the difference to 3 decimals', () => {
    const s = choose(primary('fresh'), quotes('fresh'), null);
    expect(s.source).toBe('gold-api.com');
    expect(s.reading).toMatchObject({ status: 'fresh', value: goldApi.price });
    expect(s.crossCheck).toEqual({ status: 'agree', difference_pct: Number(((goldApi.price / sq.value.mid - 1) * 100).toFixed(3)) });
    expect(s.quote).toEqual(sq.value);
    expect(s.sources).toEqual([
      { name: 'gold-api.com', price_usd_oz: goldApi.price, as_of: new Date(goldApiAsOf).toISOString(), status: 'fresh' },
      { name: 'swissquote.com', price_usd_oz: sq.value.mid, as_of: new Date(sq.asOf).toISOString(), status: 'fresh' },
    ]);
  });

  it('primary down: the quotes feed mid, fresh, named', () => {
    const s = choose(primary('stale'), quotes('fresh'), goldApi.price);
    expect(s).toMatchObject({ source: 'swissquote.com', reading: { status: 'fresh', value: sq.value.mid, asOf: sq.asOf } });
    expect(s.crossCheck).toEqual({ status: 'single', difference_pct: null });
    expect(choose(none, quotes('fresh'), null).source).toBe('swissquote.com');
  });

  it('quotes feed down: the primary, no bid or ask', () => {
    const s = choose(primary('fresh'), quotes('stale'), null);
    expect(s).toMatchObject({ source: 'gold-api.com', reading: { status: 'fresh' }, quote: null, crossCheck: { status: 'single' } });
    expect(s.sources[1]).toMatchObject({ status: 'stale', price_usd_oz: sq.value.mid });
    expect(choose(primary('fresh'), none, null).sources[1]).toEqual({
      name: 'swissquote.com',
      price_usd_oz: null,
      as_of: null,
      status: 'unavailable',
    });
  });

  it('both down: the newer last real value of either, stale', () => {
    expect(choose(primary('stale'), quotes('stale'), null)).toMatchObject({
      source: 'swissquote.com',
      reading: { status: 'stale', value: sq.value.mid },
    });
    const later = primary('stale', goldApi.price, sq.asOf + 1000);
    expect(choose(later, quotes('stale'), null)).toMatchObject({ source: 'gold-api.com', reading: { status: 'stale', value: goldApi.price } });
    expect(choose(primary('stale'), none, null)).toMatchObject({ source: 'gold-api.com', reading: { status: 'stale' } });
  });

  it('never seen: unavailable', () => {
    expect(choose(none, none, null)).toMatchObject({ source: 'unavailable', reading: { status: 'unavailable', value: null }, quote: null });
  });
});

describe('divergence', () => {
  const jumped = goldApi.price * 1.1; // within the 25% jump rule, far beyond 1.5%

  it('serves the source closer to the last price served', () => {
    const s = choose(primary('fresh', jumped), quotes('fresh'), goldApi.price);
    expect(s.crossCheck.status).toBe('diverged');
    expect(s.crossCheck.difference_pct).toBe(Number(((jumped / sq.value.mid - 1) * 100).toFixed(3)));
    expect(s).toMatchObject({ source: 'swissquote.com', reading: { value: sq.value.mid } });
    // The other way round: the quotes feed is the one that moved.
    const far: Quote = { bid: sq.value.bid * 1.1, ask: sq.value.ask * 1.1, mid: sq.value.mid * 1.1 };
    expect(choose(primary('fresh'), quotes('fresh', far), goldApi.price).source).toBe('gold-api.com');
  });

  it('with no price served yet, the primary', () => {
    expect(choose(primary('fresh', jumped), quotes('fresh'), null)).toMatchObject({ source: 'gold-api.com', crossCheck: { status: 'diverged' } });
  });

  it('1.5% is still agreement; just beyond is not', () => {
    const at = (ratio: number) => choose(primary('fresh', sq.value.mid * ratio), quotes('fresh'), null).crossCheck.status;
    expect(at(1.0149)).toBe('agree');
    expect(at(0.9851)).toBe('agree');
    expect(at(1.0151)).toBe('diverged');
    expect(at(0.9849)).toBe('diverged');
  });
});
