import { config } from '../core/config';
import { metrics } from '../core/metrics.mjs';
import { getStore, safely } from '../store';
import { afterAnswer } from '../store/after-answer';
import { setOutcomeWriter, type FailureKind, type Outcome } from './outcome-sink';

// What each upstream attempt came to (lib/sources/upstream/fetch.ts records every one), kept in the store so
// every instance adds to the same counts and the status page sees them all (decisions §26). Per upstream and
// UTC day, one bucket of counts: per minute of the day `<minute>.<outcome>` (ok, timeout, http, invalid,
// network), and per hour a latency histogram of the successful answers, `h<hour>.b<bin>`. A bucket lives
// 8 days after its last count, so 7 whole days are always there; its size is bounded by its names (1,440
// minutes × 5 outcomes, 24 hours × 12 bins). The last success and the last failure are one value each,
// replaced only by a newer one. Recording is best effort and off the answer's path: attempts gather in
// memory and are written on the next turn of the event loop, handed to the platform (afterAnswer) so a
// serverless instance does not freeze them; a failed write is dropped (never retried, so never counted twice).

export type { FailureKind, Outcome };

/** Upper bounds of the latency bins, ms; one more bin holds anything slower. */
export const LATENCY_BOUNDS_MS = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000] as const;
/** Seconds a bucket and the last outcomes are kept after their last write. */
const KEEP_S = 8 * 86_400;
const DAY_MS = 86_400_000;

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const bucketKey = (upstream: string, day: string) => `outcomes:${upstream}:${day}`;
export const lastOkKey = (upstream: string) => `outcome-ok:${upstream}`;
export const lastFailureKey = (upstream: string) => `outcome-failure:${upstream}`;

/** The last success or failure as kept: `as_of` (ms) orders them. */
export interface LastOutcome {
  as_of: number;
  kind: FailureKind | null;
  status: number | null;
}

const pending = new Map<string, Record<string, number>>();
const lastOk = new Map<string, LastOutcome>();
const lastFailure = new Map<string, LastOutcome>();

/** Keeps one attempt (outcome-sink.ts hands it over): written to the store soon after. Never throws, never waits. */
function keep(upstream: string, o: Outcome): void {
  if (!config.outcomesEnabled()) return;
  const dayStart = o.at - (o.at % DAY_MS);
  const minute = Math.floor((o.at - dayStart) / 60_000);
  const key = bucketKey(upstream, dayOf(o.at));
  const counts = pending.get(key) ?? {};
  pending.set(key, counts);
  const add = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
  add(`${minute}.${o.kind ?? 'ok'}`);
  if (!o.kind) add(`h${Math.floor(minute / 60)}.b${latencyBin(o.ms)}`);
  const last: LastOutcome = { as_of: o.at, kind: o.kind, status: o.status };
  const lasts = o.kind ? lastFailure : lastOk;
  if ((lasts.get(upstream)?.as_of ?? -1) <= o.at) lasts.set(upstream, last);
  afterAnswer(flushSoon());
}

setOutcomeWriter(keep);

/** The bin of a latency in ms (LATENCY_BOUNDS_MS.length for anything slower than the last bound). */
export function latencyBin(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((b) => ms <= b);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

// One write at a time; attempts that arrive meanwhile wait for the next one.
let next: Promise<void> | null = null;
let running: Promise<void> = Promise.resolve();

/** Settles once what is pending now has been written (or has failed, logged). */
function flushSoon(): Promise<void> {
  next ??= running
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(() => {
      next = null;
      running = flush();
      return running;
    });
  return next;
}

async function flush(): Promise<void> {
  const buckets = [...pending];
  const oks = [...lastOk];
  const failures = [...lastFailure];
  pending.clear();
  lastOk.clear();
  lastFailure.clear();
  const store = getStore();
  const writes = [
    ...buckets.map(([key, counts]) => safely(() => store.addCounts(key, counts, KEEP_S).then(() => true), `count ${key}`)),
    ...oks.map(([u, v]) => safely(() => store.setIfNewer(lastOkKey(u), v, KEEP_S), `save ${lastOkKey(u)}`)),
    ...failures.map(([u, v]) => safely(() => store.setIfNewer(lastFailureKey(u), v, KEEP_S), `save ${lastFailureKey(u)}`)),
  ];
  const done = await Promise.all(writes);
  for (const ok of done) metrics().recordWrites.inc({ what: 'outcomes', result: ok === null ? 'failed' : 'ok' });
}

/** One upstream's record over the kept days, as read from the store. */
export interface UpstreamRecord {
  /** Every minute bucket: its start (ms) and its count per outcome (`ok` or a failure kind). */
  minutes: { at: number; counts: Partial<Record<FailureKind | 'ok', number>> }[];
  /** Latency bins of successful answers per hour: the hour's start (ms) and its counts per bin. */
  hours: { at: number; bins: number[] }[];
  lastOk: LastOutcome | null;
  lastFailure: LastOutcome | null;
}

/** The record of each of `upstreams` over the last 8 UTC days (one read of the buckets); throws when the store does not answer. */
export async function readOutcomes(upstreams: readonly string[], now = Date.now()): Promise<Map<string, UpstreamRecord>> {
  const days = Array.from({ length: 8 }, (_, i) => dayOf(now - i * DAY_MS));
  const store = getStore();
  const keys = upstreams.flatMap((u) => days.map((d) => bucketKey(u, d)));
  const [buckets, lasts] = await Promise.all([
    store.counts(keys),
    Promise.all(upstreams.map((u) => Promise.all([store.get<LastOutcome>(lastOkKey(u)), store.get<LastOutcome>(lastFailureKey(u))]))),
  ]);
  const out = new Map<string, UpstreamRecord>();
  upstreams.forEach((u, i) => {
    const minutes = new Map<number, Partial<Record<FailureKind | 'ok', number>>>();
    const hours = new Map<number, number[]>();
    days.forEach((day, j) => {
      const dayStart = Date.parse(`${day}T00:00:00Z`);
      for (const [name, n] of Object.entries(buckets[i * days.length + j] ?? {})) {
        const lat = /^h(\d+)\.b(\d+)$/.exec(name);
        if (lat) {
          const at = dayStart + Number(lat[1]) * 3_600_000;
          const bins = hours.get(at) ?? new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
          bins[Math.min(Number(lat[2]), LATENCY_BOUNDS_MS.length)] += n;
          hours.set(at, bins);
          continue;
        }
        const min = /^(\d+)\.(ok|timeout|http|invalid|network)$/.exec(name);
        if (!min) continue;
        const at = dayStart + Number(min[1]) * 60_000;
        const counts = minutes.get(at) ?? {};
        const kind = min[2] as FailureKind | 'ok';
        counts[kind] = (counts[kind] ?? 0) + n;
        minutes.set(at, counts);
      }
    });
    out.set(u, {
      minutes: [...minutes].map(([at, counts]) => ({ at, counts })).sort((a, b) => a.at - b.at),
      hours: [...hours].map(([at, bins]) => ({ at, bins })).sort((a, b) => a.at - b.at),
      lastOk: lasts[i][0],
      lastFailure: lasts[i][1],
    });
  });
  return out;
}
