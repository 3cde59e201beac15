import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream, fixture, PRIMARY_FIXTURE, QUOTES_FIXTURE } from '../../support/fake-upstream';
import { readQuotes } from '@/lib/sources/upstream/quotes';

// The recorder with a fixed clock: nothing while the market is closed, the served price whichever
// source gave it, and an intraday state that does not count a closure as missed beats.

let fake: FakeUpstream;
let lib: {
  sampler: typeof import('@/lib/series/sampler');
  intraday: typeof import('@/lib/series/intraday');
  store: typeof import('@/lib/store');
};

beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-unit-')),
    SAMPLE_INTERVAL_S: '120',
    UPSTREAM_TIMEOUT_MS: '1000',
  });
  lib = { sampler: await import('@/lib/series/sampler'), intraday: await import('@/lib/series/intraday'), store: await import('@/lib/store') };
});
afterAll(() => fake.close());

const ny = (local: string) => Date.parse(local);
const points = (symbol: 'xau' | 'xag' | 'xpt' | 'xpd') => lib.store.getStore().range(lib.sampler.SERIES[symbol], 0, 2 ** 31);

describe('sampler', () => {
  it('records nothing while the market is closed, and asks no upstream', async () => {
    fake.resetCalls();
    for (const closed of ['2026-11-21T12:00:00-05:00', '2026-11-24T17:30:00-05:00', '2026-12-25T10:00:00-05:00']) {
      expect(await lib.sampler.sampleOnce(ny(closed))).toEqual({
        xau: 'market closed',
        xag: 'market closed',
        xpt: 'market closed',
        xpd: 'market closed',
      });
    }
    expect(await points('xau')).toEqual([]);
    expect(fake.calls.gold + fake.calls.silver + fake.calls.platinum + fake.calls.palladium + fake.calls.quotes).toBe(0);
  });

  it('while open records the served price of every metal; with the primary down, the quotes feed mid', async () => {
    const t = ny('2026-11-24T10:00:00-05:00');
    fake.set('gold', { mode: 'refuse' }).set('silver', { mode: 'status', status: 500 }).set('platinum', { mode: 'malformed' });
    fake.set('quotes:XPD', { mode: 'hang' });
    expect(await lib.sampler.sampleOnce(t)).toEqual({ xau: 'recorded', xag: 'recorded', xpt: 'recorded', xpd: 'recorded' });
    const mid = (metal: keyof typeof QUOTES_FIXTURE) => readQuotes(metal, fixture(QUOTES_FIXTURE[metal]), Date.now()).value.mid;
    expect((await points('xau')).map((p) => p.p)).toEqual([mid('XAU')]);
    expect((await points('xag')).map((p) => p.p)).toEqual([mid('XAG')]);
    expect((await points('xpt')).map((p) => p.p)).toEqual([mid('XPT')]);
    // Palladium's quotes feed hangs: the primary's price is recorded.
    expect((await points('xpd')).map((p) => p.p)).toEqual([fixture(PRIMARY_FIXTURE.XPD).price]);
    fake.reset();
  });

  it('a price that comes after its bucket could still be claimed records nothing, so no bucket is sampled twice', async () => {
    // 1 s buckets; gold's two sources answer in 2.5 s, past the moment its bucket could still be claimed
    // (an interval after the bucket's end). The other metals answer at once and are recorded.
    // The deadline is far past the answer, so only the bucket, never the timeout, decides.
    Object.assign(process.env, { SAMPLE_INTERVAL_S: '1', UPSTREAM_TIMEOUT_MS: '15000', CACHE_TTL_S: '1' });
    fake.set('gold', { mode: 'ok', delayMs: 2500 }).set('quotes:XAU', { mode: 'ok', delayMs: 2500 });
    await new Promise((r) => setTimeout(r, 1100)); // past the TTL: every metal is read again
    const before = (await points('xau')).length;
    const at = ny('2026-11-24T10:05:00-05:00');
    try {
      expect(await lib.sampler.sampleOnce(at)).toEqual({ xau: 'bucket over', xag: 'recorded', xpt: 'recorded', xpd: 'recorded' });
      expect(await points('xau')).toHaveLength(before);
      // The bucket was not claimed either: it is over, and nothing may record it.
      expect(await lib.store.getStore().claim(`sample:xau:1:${Math.floor(at / 1000)}`, 5)).toBe(true);
    } finally {
      Object.assign(process.env, { SAMPLE_INTERVAL_S: '120', UPSTREAM_TIMEOUT_MS: '1000' });
      delete process.env.CACHE_TTL_S;
      fake.reset();
    }
  });
});

describe('intraday state across a closure', () => {
  const last = { t: ny('2026-11-20T16:58:00-05:00') / 1000 }; // Friday, two minutes before the weekend

  it('the last sample before a close stays fresh through the closure', () => {
    expect(lib.intraday.seriesState(last, ny('2026-11-21T12:00:00-05:00')).status).toBe('fresh');
    expect(lib.intraday.seriesState(last, ny('2026-11-22T17:59:00-05:00')).status).toBe('fresh');
    // Two open minutes on Friday plus three after Sunday's open: five, under three beats of two.
    expect(lib.intraday.seriesState(last, ny('2026-11-22T18:03:00-05:00')).status).toBe('fresh');
  });

  it('goes stale once three beats are missed while open', () => {
    expect(lib.intraday.seriesState(last, ny('2026-11-22T18:05:00-05:00')).status).toBe('stale');
    const weekday = { t: ny('2026-11-24T10:00:00-05:00') / 1000 };
    expect(lib.intraday.seriesState(weekday, ny('2026-11-24T10:06:00-05:00')).status).toBe('fresh');
    expect(lib.intraday.seriesState(weekday, ny('2026-11-24T10:06:01-05:00')).status).toBe('stale');
  });

  it('age_seconds stays the real age', () => {
    const now = ny('2026-11-21T12:00:00-05:00');
    expect(lib.intraday.seriesState(last, now).age_seconds).toBe(now / 1000 - last.t);
  });
});
