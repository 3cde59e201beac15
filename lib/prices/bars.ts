import { metrics } from '../core/metrics.mjs';
import { feeds } from '../sources/feeds';
import type { Reading } from '../sources/freshness';
import { sessionNow } from '../calendar/clock';
import { METALS, type MetalId } from '../reference/metals';
import { getStore, StoreDownError, type DailyBar } from '../store';
import { fold } from '../store/fold';
import type { FxTable } from '../sources/upstream/fx';

// Daily spot bars, first-party (decisions §15): one bar per metal per trading session, folded from every
// fresh price the service serves (samples and request-time reads alike), kept 10 years in the store. Each
// new upstream observation is folded once, into the session it was observed in, by one instance (§25),
// not each request that reads it from the cache; the write
// completes before the answer or is handed to the platform to finish after it (decisions §20). The FX
// table in force at the close is kept once per session date, apart from the bars, so reading years of
// bars moves no FX tables; a table replaces the kept one only when newer. A session the service did not
// see has no bar.

/** The served metals with a daily spot series: a metal the spot answer serves is one entry here. */
export const BAR_SERIES = Object.fromEntries(METALS.map((m) => [m.id, { symbol: m.intraday, series: `daily:${m.intraday}` }])) as Record<
  MetalId,
  { symbol: string; series: string }
>;

/** How long bars and closing FX tables are kept. */
export const BAR_RETENTION_YEARS = 10;
const FX_KEY = (date: string) => `barfx:${date}`;
const FX_TTL_S = (BAR_RETENTION_YEARS + 1) * 366 * 86_400;

/** The FX table recorded with a session's bars: its upstream time (ms) and rates against USD. */
export interface CloseFx {
  as_of: number;
  rates: FxTable;
}

/** Told of each change to a session's bar: `update` turns the bar the listener holds into the new one. */
type Listener = (metal: MetalId, date: string, update: (held: DailyBar | null) => DailyBar) => void;

// Shared by every copy of this module in the process (the boot hook and the routes are bundled apart).
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.bars')] ??= {
  folded: new Map<MetalId, number>(),
  folding: new Map<MetalId, { t: number; write: Promise<void> }>(),
  fxSaved: new Map<string, number>(),
  trimmedFor: new Map<MetalId, string>(),
  listeners: new Set<Listener>(),
}) as {
  /** Per metal, the observation (ms) whose fold is in the store. */
  folded: Map<MetalId, number>;
  /** Per metal, the fold being written, shared by every request that serves the same observation. */
  folding: Map<MetalId, { t: number; write: Promise<void> }>;
  fxSaved: Map<string, number>;
  trimmedFor: Map<MetalId, string>;
  listeners: Set<Listener>;
};

/** Each fold is announced at once (the observation) and again when the store answers (the stored bar), so readers keep theirs current. */
export function onBar(listener: Listener): void {
  state.listeners.add(listener);
}

/**
 * Folds a served reading into the bar of the session it was observed in, when it is a fresh observation
 * not folded yet and the market was open at that moment (decisions §25). Membership is decided here, from
 * the reading's own time (`fetchedAt`) and never from when it is served, so whichever instance serves it
 * first, and whenever, it lands in the same bar: observed at 17:59:50 New York (closed) and served at
 * 18:00:10, it is no session's; observed at 16:59:55 and served at 17:00:05, it is the closing session's.
 * Every surface that serves a price (REST, MCP, the sampler behind the cron route) comes through here.
 * Returns the write (bar, closing FX table, trim), which never rejects: a failure is logged and the
 * reading stays unfolded, so the next request that serves it writes it again. Null when there is nothing
 * to write. The caller keeps the write alive past its answer (decisions §20).
 */
export function recordServed(metal: MetalId, reading: Reading<number>): Promise<void> | null {
  const t = reading.fetchedAt;
  const p = reading.value;
  if (reading.status !== 'fresh' || p === null || t === null || state.folded.get(metal) === t) return null;
  const running = state.folding.get(metal);
  if (running?.t === t) return running.write;
  const session = sessionNow(t);
  if (!session.open) {
    state.folded.set(metal, t);
    return null;
  }
  for (const l of state.listeners) l(metal, session.date, (held) => fold(held, session.date, t, p));
  const entry = { t, write: Promise.resolve() };
  state.folding.set(metal, entry);
  entry.write = writeFold(metal, session.date, t, p)
    // The fold is idempotent (the same observation again changes nothing), so a retry is safe.
    .then(
      () => {
        metrics().recordWrites.inc({ what: 'bar_fold', result: 'ok' });
        // Writes can finish out of order; the newest observation stored is the one a re-read skips.
        if ((state.folded.get(metal) ?? 0) < t) state.folded.set(metal, t);
      },
      (err) => {
        metrics().recordWrites.inc({ what: 'bar_fold', result: 'failed' });
        if (!(err instanceof StoreDownError))
          console.warn(`[store] fold ${metal} ${session.date} failed: ${err instanceof Error ? err.message : String(err)}`);
      },
    )
    .finally(() => {
      if (state.folding.get(metal) === entry) state.folding.delete(metal);
    });
  return entry.write;
}

/**
 * How long an observation's fold claim is kept: far past the time any reading stays fresh (spot's is
 * 30 s), after which no instance serves it as a new observation again.
 */
const FOLD_CLAIM_S = 3600;

/**
 * The writes of one observation: its bar, the session's closing FX table, the trim of old bars. Each
 * observation is folded once across instances, by the one that claims it (`n` counts it once); every
 * instance that served it still keeps the session's closing FX table. A failed fold gives the claim back.
 */
async function writeFold(metal: MetalId, date: string, t: number, p: number): Promise<void> {
  const { series } = BAR_SERIES[metal];
  const claim = `fold:${series}:${t}`;
  if (await getStore().claim(claim, FOLD_CLAIM_S)) {
    let bar: DailyBar;
    try {
      bar = await getStore().foldBar(series, date, t, p);
    } catch (err) {
      await getStore()
        .release(claim)
        .catch(() => {});
      throw err;
    }
    for (const l of state.listeners) l(metal, date, (held) => (held && held.t1 > bar.t1 ? held : bar));
  }
  await saveCloseFx(date);
  await trimOnce(metal, date);
}

/**
 * Keeps the live FX table as the session's closing table whenever a newer one is in force; the store
 * replaces the kept table only with a newer one, so an instance holding an older table never wins.
 */
async function saveCloseFx(date: string): Promise<void> {
  const fx = await feeds.fx.read();
  if (fx.status !== 'fresh' || !fx.value || fx.asOf === null) return;
  if (state.fxSaved.get(date) === fx.asOf) return;
  await getStore().setIfNewer<CloseFx>(FX_KEY(date), { as_of: fx.asOf, rates: fx.value }, FX_TTL_S);
  state.fxSaved.set(date, fx.asOf);
  if (state.fxSaved.size > 8) state.fxSaved.delete(state.fxSaved.keys().next().value!);
}

/** Bars older than the retention go, once per session per process. */
async function trimOnce(metal: MetalId, date: string): Promise<void> {
  if (state.trimmedFor.get(metal) === date) return;
  await getStore().trimBars(BAR_SERIES[metal].series, retentionStart(date));
  state.trimmedFor.set(metal, date);
}

/** The oldest session date kept when `date` is the current one. */
export function retentionStart(date: string): string {
  return `${Number(date.slice(0, 4)) - BAR_RETENTION_YEARS}${date.slice(4)}`;
}

/** The FX table recorded with a session's bars, or null (imported bars, or sessions before FX was kept). */
export function closeFx(date: string): Promise<CloseFx | null> {
  return getStore().get<CloseFx>(FX_KEY(date));
}
