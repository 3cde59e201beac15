import { feeds } from '../sources/feeds';
import type { Reading } from '../sources/freshness';
import { sessionNow } from '../calendar/clock';
import { METALS, type MetalId } from '../reference/metals';
import { getStore, safely, type DailyBar } from '../store';
import { fold } from '../store/fold';
import type { FxTable } from '../sources/upstream/fx';

// Daily spot bars, first-party (decisions §15): one bar per metal per trading session, folded from every
// fresh price the service serves (samples and request-time reads alike), kept 10 years in the store. Each
// new upstream observation is folded once, not each request that reads it from the cache, and the fold
// never holds up an answer. The FX table in force at the close is kept once per session date, apart from
// the bars, so reading years of bars moves no FX tables. A session the service did not see has no bar.

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
  fxSaved: new Map<string, number>(),
  trimmedFor: new Map<MetalId, string>(),
  listeners: new Set<Listener>(),
}) as {
  folded: Map<MetalId, number>;
  fxSaved: Map<string, number>;
  trimmedFor: Map<MetalId, string>;
  listeners: Set<Listener>;
};

/** Each fold is announced at once (the observation) and again when the store answers (the stored bar), so readers keep theirs current. */
export function onBar(listener: Listener): void {
  state.listeners.add(listener);
}

/**
 * Folds a served reading into its session's bar when it is a fresh observation not folded yet and the
 * market is open. Returns at once; the store write runs in the background and logs its failures.
 */
export function recordServed(metal: MetalId, reading: Reading<number>, nowMs = Date.now()): void {
  const t = reading.fetchedAt;
  const p = reading.value;
  if (reading.status !== 'fresh' || p === null || t === null || state.folded.get(metal) === t) return;
  state.folded.set(metal, t);
  const session = sessionNow(nowMs);
  if (!session.open) return;
  const { series } = BAR_SERIES[metal];
  for (const l of state.listeners) l(metal, session.date, (held) => fold(held, session.date, t, p));
  void safely(async () => {
    const bar = await getStore().foldBar(series, session.date, t, p);
    for (const l of state.listeners) l(metal, session.date, (held) => (held && held.t1 > bar.t1 ? held : bar));
    await saveCloseFx(session.date);
    await trimOnce(metal, session.date);
  }, `fold ${series} ${session.date}`);
}

/** Keeps the live FX table as the session's closing table whenever a newer one is in force. */
async function saveCloseFx(date: string): Promise<void> {
  const fx = await feeds.fx.read();
  if (fx.status !== 'fresh' || !fx.value || fx.asOf === null) return;
  if (state.fxSaved.get(date) === fx.asOf) return;
  state.fxSaved.set(date, fx.asOf);
  if (state.fxSaved.size > 8) state.fxSaved.delete(state.fxSaved.keys().next().value!);
  await getStore().set<CloseFx>(FX_KEY(date), { as_of: fx.asOf, rates: fx.value }, FX_TTL_S);
}

/** Bars older than the retention go, once per session per process. */
async function trimOnce(metal: MetalId, date: string): Promise<void> {
  if (state.trimmedFor.get(metal) === date) return;
  state.trimmedFor.set(metal, date);
  await getStore().trimBars(BAR_SERIES[metal].series, retentionStart(date));
}

/** The oldest session date kept when `date` is the current one. */
export function retentionStart(date: string): string {
  return `${Number(date.slice(0, 4)) - BAR_RETENTION_YEARS}${date.slice(4)}`;
}

/** The FX table recorded with a session's bars, or null (imported bars, or sessions before FX was kept). */
export function closeFx(date: string): Promise<CloseFx | null> {
  return getStore().get<CloseFx>(FX_KEY(date));
}

/** Every bar of a metal within the retention, oldest first. */
export function allBars(metal: MetalId, today: string): Promise<DailyBar[]> {
  return getStore().bars(BAR_SERIES[metal].series, retentionStart(today), '9999-12-31');
}
