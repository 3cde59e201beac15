import { alertCounts, type AlertCounts } from '../alerts/evaluate';
import { sessionDates } from '../calendar/market';
import { sessionNow } from '../calendar/clock';
import { ttlMs } from '../core/config';
import { VERSION } from '../core/version';
import { agreementSeries } from '../prices/agreement';
import { BAR_SERIES } from '../prices/bars';
import { DIVERGENCE } from '../prices/served-price';
import { METALS } from '../reference/metals';
import type { Status } from '../schemas/status';
import { SAMPLER_RUN_KEY, type SamplerRun } from '../series/sampler';
import { spotSeries } from '../series/spot-series';
import { readOutcomes } from '../sources/outcomes';
import { isUnavailable, NOTHING, unavailable, type Unavailable } from '../sources/unavailable';
import { UPSTREAMS } from '../sources/upstreams';
import { getStore } from '../store';
import type { DailyBar } from '../store';
import { upstreamStatus } from './upstream-state';

// The status answer (decisions §26): GET /api/v1/status, the /status page and get_data_status all show this.
// Everything comes from the store, so every instance shows the same figures; when the store does not answer,
// the record cannot be read: the last reading this instance made is shown flagged stale, with `store.answers`
// false, and with none the answer says so (unavailable), as for any value (decisions §26, §29).

/** Sessions the record lists per metal. */
export const RECORD_SESSIONS = 30;
const DIVERGED_BP = Math.round(DIVERGENCE * 10_000);

/** Whether the store answers a read now. */
export async function storeAnswers(): Promise<boolean> {
  try {
    await getStore().get('status:probe');
    return true;
  } catch {
    return false;
  }
}

/** Seconds one reading of the record is reused: the answer's cache lifetime, so its validators hold meanwhile. */
const REUSE_S = 30;
let memo: { at: number; status: Status } | null = null;

export async function getStatus(now = Date.now()): Promise<Status | Unavailable> {
  const store = getStore();
  // Asked every time: a store that stopped answering is said at once, never hidden behind a reused reading.
  if (!(await storeAnswers())) {
    if (memo) return lastReading(memo, now);
    return unavailable(`The store (${store.kind}) does not answer: the record cannot be read`, NOTHING, now);
  }
  if (memo && now >= memo.at && now - memo.at < ttlMs(REUSE_S)) return memo.status;
  const status = await readStatus(store, now);
  if (!isUnavailable(status)) memo = { at: now, status };
  return status;
}

/** The last reading of the record, while the store does not answer: stale, and saying the store does not answer. */
function lastReading(held: { at: number; status: Status }, now: number): Status {
  const { status } = held;
  return {
    ...status,
    store: { ...status.store, answers: false },
    data_state: { status: 'stale', as_of: status.data_state.as_of, source: 'cache', age_seconds: Math.max(0, Math.floor((now - held.at) / 1000)) },
    updated_at: new Date(now).toISOString(),
  };
}

async function readStatus(store: ReturnType<typeof getStore>, now: number): Promise<Status | Unavailable> {
  let outcomes: Awaited<ReturnType<typeof readOutcomes>>;
  let pairs: { t: number; p: number }[][];
  let run: SamplerRun | null;
  let series: (readonly DailyBar[])[];
  let alerts: AlertCounts;
  try {
    [outcomes, pairs, run, series, alerts] = await Promise.all([
      readOutcomes(
        UPSTREAMS.map((u) => u.name),
        now,
      ),
      Promise.all(METALS.map((m) => store.range(agreementSeries(m.id), Math.floor(now / 1000) - 86_400, Math.floor(now / 1000)))),
      store.get<SamplerRun>(SAMPLER_RUN_KEY),
      Promise.all(METALS.map(async (m) => (await spotSeries(m.id, now)).bars)),
      alertCounts(now),
    ]);
  } catch {
    return unavailable(`The store (${store.kind}) failed while the record was read`, NOTHING, now);
  }
  const session = sessionNow(now);
  const dates = sessionDates(session.date, RECORD_SESSIONS);
  const h = store.health?.();
  const at = new Date(now).toISOString();
  return {
    upstreams: UPSTREAMS.map((u) => upstreamStatus(u, outcomes.get(u.name)!, now)),
    agreement: METALS.map((m, i) => agreement(m.id, pairs[i])),
    record: METALS.map((m, i) => {
      const byDate = new Map(series[i].map((b) => [b.d, b]));
      const first = series[i][0]?.d ?? null;
      const sessions = dates.map((date) => {
        const bar = byDate.get(date);
        const final = date < session.date || !session.open;
        return { date, n: bar && bar.origin === 'recorded' ? bar.n : null, final, origin: bar?.origin ?? null };
      });
      return {
        metal: m.id,
        symbol: BAR_SERIES[m.id].symbol,
        sessions,
        missing_sessions: sessions.filter((s) => s.final && s.origin === null && first !== null && s.date > first).map((s) => s.date),
        sampler: {
          last_run: run ? new Date(run.as_of).toISOString() : null,
          outcome: run?.outcomes[m.intraday as keyof SamplerRun['outcomes']] ?? null,
        },
      };
    }),
    store: { kind: store.kind, answers: true, degraded_since: h?.since ? new Date(h.since).toISOString() : null },
    alerts,
    version: VERSION,
    data_state: { status: 'fresh', as_of: at, source: 'cache', age_seconds: 0 },
    updated_at: at,
  };
}

function agreement(metal: string, points: { t: number; p: number }[]): Status['agreement'][number] {
  const gaps = points.map((x) => Math.abs(x.p)).sort((a, b) => a - b);
  const n = gaps.length;
  const median = n === 0 ? null : n % 2 ? gaps[(n - 1) / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2;
  return {
    metal,
    pairs: n,
    median_bp: median === null ? null : Math.round(median * 100) / 100,
    max_bp: n ? gaps[n - 1] : null,
    cross_check_failures: gaps.filter((g) => g > DIVERGED_BP).length,
    threshold_bp: DIVERGED_BP,
  };
}
