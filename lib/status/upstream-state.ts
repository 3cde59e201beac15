import { LATENCY_BOUNDS_MS, type UpstreamRecord } from '../sources/outcomes';
import type { UpstreamEntry } from '../sources/upstreams';
import type { UpstreamStatus } from '../schemas/status';

// One upstream's line of the status answer, from its recorded outcomes (pure: the record and the time in,
// the figures out). The thresholds are the ones the schema documents (lib/schemas/status.ts).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** No success for this long after a failure: down. */
export const DOWN_AFTER_MS = 15 * MINUTE;
/** Availability over the last hour below this: degraded. */
export const DEGRADED_BELOW = 0.95;

type Counts = UpstreamRecord['minutes'][number]['counts'];
const total = (c: Counts) => (c.ok ?? 0) + (c.timeout ?? 0) + (c.http ?? 0) + (c.invalid ?? 0) + (c.network ?? 0);

function share(record: UpstreamRecord, from: number): { ratio: number | null; successes: number; attempts: number } {
  let successes = 0;
  let attempts = 0;
  for (const m of record.minutes) {
    if (m.at < from) continue;
    successes += m.counts.ok ?? 0;
    attempts += total(m.counts);
  }
  return { ratio: attempts ? Math.round((successes / attempts) * 10_000) / 10_000 : null, successes, attempts };
}

/** The upper bound (ms) of the bin holding quantile `q` of `bins`; null when empty. */
export function quantile(bins: number[], q: number): number | null {
  const n = bins.reduce((a, b) => a + b, 0);
  if (!n) return null;
  const rank = Math.ceil(q * n);
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i];
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)];
  }
  return null;
}

export function upstreamStatus(entry: UpstreamEntry, record: UpstreamRecord, now: number): UpstreamStatus {
  const h24 = share(record, now - 24 * HOUR);
  const d7 = share(record, now - 7 * 24 * HOUR);
  const lastHour = share(record, now - HOUR);
  const bins = new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
  // Whole hours: the one now - 24 h falls in counts whole.
  for (const h of record.hours) if (h.at + HOUR > now - 24 * HOUR) h.bins.forEach((n, i) => (bins[i] += n));
  const ok = record.lastOk?.as_of ?? null;
  const failure = record.lastFailure;
  const failedLast = failure !== null && (ok === null || failure.as_of > ok);
  const attempted = d7.attempts > 0 || ok !== null || failure !== null;
  let state: UpstreamStatus['state'] = 'ok';
  if (!attempted) state = 'unused';
  else if (failedLast && (ok === null || now - ok > DOWN_AFTER_MS)) state = 'down';
  else if (failedLast || (lastHour.ratio !== null && lastHour.ratio < DEGRADED_BELOW)) state = 'degraded';
  return {
    id: entry.id,
    name: entry.name,
    role: entry.role,
    state,
    last_success: ok === null ? null : new Date(ok).toISOString(),
    last_failure: failure && failure.kind ? { at: new Date(failure.as_of).toISOString(), kind: failure.kind, status: failure.status ?? null } : null,
    availability: { h24, d7 },
    latency_ms: { p50: quantile(bins, 0.5), p95: quantile(bins, 0.95), samples: bins.reduce((a, b) => a + b, 0) },
  };
}
