import { ttlMs } from '../core/config';
import { getStore, safely } from '../store';
import { Feed } from './freshness';
import { fetchFxCurrencies, fetchFxRates, type FxCurrencies } from './upstream/fx-history';
import { UpstreamError } from './upstream/fetch';

// Historical exchange rates per currency (decisions §24): the first ask takes the whole range in one request,
// later asks only the days after the last one kept, and once a week the whole range again (decisions §29: the
// source corrects and backfills past days). Kept in memory and in the store (`fxh:<CODE>`, shared by
// instances), one request in flight per currency however many answers wait on it. A failed ask answers from
// what is kept (stale), or nothing when nothing ever was.

/** A currency's rates per USD, oldest first: `d[i]` the date each was published, `r[i]` the rate. */
export interface FxSeries {
  code: string;
  d: string[];
  r: number[];
  /** When the upstream was last asked successfully (ms). */
  fetchedAt: number;
  /** When the whole range was last fetched (ms; absent in a series kept before it was recorded). */
  wholeAt?: number;
}

export interface FxReading {
  status: 'fresh' | 'stale' | 'unavailable';
  series: FxSeries | null;
  /** Why the last ask failed, null after a success. */
  error: string | null;
}

/** New days are asked for at most this often per currency: central banks publish once a working day. */
const TTL_S = 6 * 3600;
/** After two failures in a row, a currency's upstream is left alone this long (or the TTL, if shorter). */
const RETRY_AFTER_FAILURE_MS = 5000;
/** The whole range is fetched again this often, so the source's corrections and backfills of past days arrive. */
const WHOLE_EVERY_MS = 7 * 86_400_000;
/** Where a first ask starts when the currency list does not say: the earliest rates Frankfurter holds. */
const EARLIEST = '1948-01-01';

/** The currencies with a history and where each starts (`/v2/currencies`), asked at most daily. */
export const fxCurrencies = new Feed<FxCurrencies>({
  name: 'fx-history-currencies',
  ttlS: 24 * 3600,
  fetch: async () => {
    const value = await fetchFxCurrencies();
    const now = Date.now();
    return { value, asOf: now, fetchedAt: now };
  },
});

interface State {
  mem: FxSeries | null;
  inflight: Promise<FxReading> | null;
  failedAt: number;
  failures: number;
  error: string | null;
}

// One state per currency for the whole process, shared by every copy of this module (see lib/sources/freshness.ts).
const STATES: Map<string, State> = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.fx-history')] ??= new Map()) as Map<string, State>;

function state(code: string): State {
  let s = STATES.get(code);
  if (!s) STATES.set(code, (s = { mem: null, inflight: null, failedAt: 0, failures: 0, error: null }));
  return s;
}

const key = (code: string) => `fxh:${code}`;
const isFresh = (v: FxSeries | null, now: number): boolean => v !== null && now - v.fetchedAt < ttlMs(TTL_S);
const reading = (status: FxReading['status'], series: FxSeries | null, error: string | null): FxReading => ({ status, series, error });

/** The day after `date` (YYYY-MM-DD). */
function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The rates of `code` (upper case, not USD) for this answer. `first`: the date its history starts, from the
 * currency list, where the first ask begins. Never throws.
 */
export function readFxSeries(code: string, first: string | null): Promise<FxReading> {
  const s = state(code);
  const now = Date.now();
  if (s.mem && isFresh(s.mem, now)) return Promise.resolve(reading('fresh', s.mem, null));
  const backoff = s.failures > 1 ? Math.min(ttlMs(TTL_S), RETRY_AFTER_FAILURE_MS) : 0;
  if (now - s.failedAt < backoff) return last(code).then((kept) => reading(kept ? 'stale' : 'unavailable', kept, s.error));
  s.inflight ??= refresh(code, first).finally(() => {
    s.inflight = null;
  });
  return s.inflight;
}

/** What is kept of `code`, without asking the upstream. */
export async function peekFxSeries(code: string): Promise<FxReading> {
  const kept = await last(code);
  return reading(kept ? (isFresh(kept, Date.now()) ? 'fresh' : 'stale') : 'unavailable', kept, state(code).error);
}

async function refresh(code: string, first: string | null): Promise<FxReading> {
  const s = state(code);
  const kept = await last(code);
  if (isFresh(kept, Date.now())) return reading('fresh', kept, null);
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  try {
    // Weekly (and first) the whole range, which replaces what is kept; otherwise only the days after the last one kept.
    const whole = !kept?.d.length || now - (kept.wholeAt ?? 0) >= WHOLE_EVERY_MS;
    const from = whole ? (first ?? kept?.d[0] ?? EARLIEST) : dayAfter(kept!.d[kept!.d.length - 1]);
    // None yet to ask for (asked again the same day) costs no request.
    const rows = from <= today ? await fetchFxRates(code, from, today) : [];
    if (whole && rows.length === 0) throw new UpstreamError('frankfurter.dev', `no rates for ${code}`);
    const next: FxSeries = whole
      ? { code, d: rows.map((x) => x.d), r: rows.map((x) => x.r), fetchedAt: Date.now(), wholeAt: now }
      : rows.length === 0
        ? { ...kept!, fetchedAt: Date.now() }
        : {
            ...kept!,
            d: [...kept!.d, ...rows.map((x) => x.d)],
            r: [...kept!.r, ...rows.map((x) => x.r)],
            fetchedAt: Date.now(),
          };
    s.mem = next;
    s.failures = 0;
    s.failedAt = 0;
    s.error = null;
    await safely(() => getStore().set(key(code), next), `save ${key(code)}`);
    return reading('fresh', next, null);
  } catch (err) {
    s.failedAt = Date.now();
    s.failures++;
    s.error = err instanceof UpstreamError ? err.reason : 'upstream failed';
    console.warn(`[upstream] FX history ${code} failed: ${err instanceof Error ? err.message : String(err)}`);
    return reading(kept ? 'stale' : 'unavailable', kept, s.error);
  }
}

/** The newest rates kept: memory, else the store (shared with other processes and instances). */
async function last(code: string): Promise<FxSeries | null> {
  const s = state(code);
  const stored = await safely(() => getStore().get<FxSeries>(key(code)), `read ${key(code)}`);
  // The copy in memory keeps its arrays while the store holds nothing newer, so what is computed from them stays valid.
  if (stored && (!s.mem || stored.fetchedAt > s.mem.fetchedAt)) {
    s.mem =
      s.mem && s.mem.wholeAt === stored.wholeAt && s.mem.d.length === stored.d.length && s.mem.d[s.mem.d.length - 1] === stored.d[stored.d.length - 1]
        ? { ...s.mem, fetchedAt: stored.fetchedAt }
        : stored;
  }
  return s.mem;
}
