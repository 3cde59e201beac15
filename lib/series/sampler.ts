import { config } from '../core/config';
import { marketNow } from '../calendar/clock';
import { METALS, type IntradaySymbol } from '../reference/metals';
import { servedPrice } from '../prices/served-price';
import { nextLondonTime } from '../prices/london-recording';
import { metrics } from '../core/metrics.mjs';
import { getStore, safely, StoreDownError } from '../store';

// The recorder behind /api/v1/intraday: the current spot of every served metal into the store, at most
// one point per symbol per bucket of SAMPLE_INTERVAL_S (an atomic claim, so concurrent triggers and
// instances never duplicate), points older than 14 days trimmed. Only fresh, real prices are
// recorded: during an outage nothing is written (a stale price is not a new sample). The price is the
// one spot serves, whichever source gave it. While the market is closed nothing is recorded: the price
// does not move, and a flat line of repeats would pass for trading that did not happen. A sample returns
// only once its writes (the point, the trim, the daily bar's fold) are done or have failed, every metal's,
// so the cron route answers after them and names each failure; a metal whose write failed gives its bucket
// back (decisions §20, §25).

export const RETENTION_S = 14 * 24 * 3600;
export type SampleSymbol = IntradaySymbol;
/** The store key of each metal's series. */
export const SERIES = Object.fromEntries(METALS.map((m) => [m.intraday, `intraday:${m.intraday}`])) as Record<SampleSymbol, string>;

export type SampleOutcome =
  | 'recorded'
  | 'bucket already sampled'
  | 'bucket over'
  | 'no fresh price'
  | 'store unavailable'
  | 'market closed'
  /** A write the store refused (a command error): logged, and the bucket left for the next run. */
  | 'write failed';

/** The sampler's last run as kept in the store (any instance, any trigger): when it started (ms) and each symbol's outcome. */
export interface SamplerRun {
  as_of: number;
  outcomes: Record<SampleSymbol, SampleOutcome>;
}
export const SAMPLER_RUN_KEY = 'sampler:last-run';

export async function sampleOnce(nowMs = Date.now()): Promise<Record<SampleSymbol, SampleOutcome>> {
  const outcomes = await sample(nowMs);
  // Kept for the status page; the newest run wins whichever instance ran it.
  await safely(() => getStore().setIfNewer<SamplerRun>(SAMPLER_RUN_KEY, { as_of: nowMs, outcomes }, 30 * 86_400), `save ${SAMPLER_RUN_KEY}`);
  return outcomes;
}

async function sample(nowMs: number): Promise<Record<SampleSymbol, SampleOutcome>> {
  if (marketNow(nowMs).status === 'closed')
    return Object.fromEntries(METALS.map((m) => [m.intraday, 'market closed'])) as Record<SampleSymbol, SampleOutcome>;
  const interval = config.sampleIntervalS();
  const t = Math.floor(nowMs / 1000);
  const bucket = Math.floor(t / interval);
  // A bucket may be claimed until an interval after it ends, and its claim outlives that moment by another
  // interval: a sampler whose price came later records nothing, so no late claim can find the first one
  // expired and record the bucket twice, however slow the upstream or the store.
  const claimUntilS = (bucket + 2) * interval;
  const started = Date.now();
  const store = getStore();
  const result = {} as Record<SampleSymbol, SampleOutcome>;
  // Every metal's writes are waited for, whichever fails (decisions §25): with Promise.all one metal's
  // error answered the cron route while the others were still writing.
  const settled = await Promise.allSettled(
    METALS.map(async ({ id, intraday: symbol }) => {
      const { reading, recorded } = await servedPrice(id);
      // The bar fold of this observation is written before the sample (and the cron route) answers.
      await recorded;
      if (reading.status !== 'fresh' || reading.value === null) {
        result[symbol] = 'no fresh price';
        return;
      }
      const nowS = t + (Date.now() - started) / 1000;
      if (nowS >= claimUntilS) {
        result[symbol] = 'bucket over';
        return;
      }
      // Claim only with a real price in hand, so a failed fetch never burns the bucket.
      const claim = `sample:${symbol}:${interval}:${bucket}`;
      if (!(await store.claim(claim, Math.ceil(claimUntilS - nowS) + interval))) {
        result[symbol] = 'bucket already sampled';
        return;
      }
      try {
        await store.addPoint(SERIES[symbol], { t, p: reading.value });
        metrics().recordWrites.inc({ what: 'intraday_point', result: 'ok' });
      } catch (err) {
        metrics().recordWrites.inc({ what: 'intraday_point', result: 'failed' });
        // The bucket is free again, so the next run (another instance's, the next trigger) records it.
        await store.release(claim).catch(() => {});
        // KV down: the store has logged its outage once; the point is lost, never made up later.
        if (!(err instanceof StoreDownError)) throw err;
        result[symbol] = 'store unavailable';
        return;
      }
      result[symbol] = 'recorded';
      // The point is in: a failed trim leaves old points one more run, and the bucket stays taken.
      await store.trim(SERIES[symbol], t - RETENTION_S).catch((err) => {
        if (!(err instanceof StoreDownError)) console.warn(`[sampler] ${symbol} trim failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    }),
  );
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') continue;
    const { intraday: symbol } = METALS[i];
    const why = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    console.error(`[sampler] ${symbol} failed: ${why}`);
    result[symbol] = 'write failed';
  }
  return result;
}

let timer: NodeJS.Timeout | null = null;

/** The self-hosted trigger: a sample soon after boot, then every SAMPLE_INTERVAL_S and at each London time (off with SAMPLER=off). */
export function startSampler(): void {
  if (timer || !config.samplerEnabled()) return;
  const run = () => sampleOnce().catch((err) => console.warn(`[sampler] failed: ${err instanceof Error ? err.message : String(err)}`));
  timer = setInterval(run, config.sampleIntervalS() * 1000);
  timer.unref();
  setTimeout(run, 1000).unref();
  // And a sample a second into each London time (decisions §30), whose first fresh reading is that time's value.
  const atLondonTime = () => {
    const wait = nextLondonTime(Date.now()) + 1000 - Date.now();
    setTimeout(
      () => {
        void run();
        atLondonTime();
      },
      Math.min(Math.max(wait, 1000), 2 ** 31 - 1),
    ).unref();
  };
  atLondonTime();
}
