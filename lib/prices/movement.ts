import { BAR_SERIES, closeFx, onBar, type CloseFx } from './bars';
import { ttlMs } from '../core/config';
import { sessionNow } from '../calendar/clock';
import type { MetalId } from '../reference/metals';
import { getStore, safely, type DailyBar } from '../store';
import { round, UNIT_DECIMALS, type Unit } from '../reference/units';
import { priceIn } from './price-in';

// How the price moved (decisions §15): the served price against the previous session's close, and the
// current session's open, high and low, all from the daily spot bars the service records (or an
// operator imported), never from another instrument. Every surface that shows a change asks this module.

export interface PriceChange {
  state: 'ok' | 'unavailable';
  /** The current session's date (while closed, the last session that closed), YYYY-MM-DD. */
  session_date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  previous_close: number | null;
  previous_close_date: string | null;
  change: number | null;
  /** Percent, 2 decimals. */
  change_pct: number | null;
  /**
   * `close`: the previous close at the FX table recorded with its bar, the price at the fresh table in force;
   * `current`: both at the table in force (a bar without its table, or no fresh table now).
   */
  fx_basis: 'close' | 'current' | null;
  /** How much of `change` the metal's own move made (decisions §32); null when it cannot be told apart. */
  from_metal: ChangePart | null;
  /** How much of `change` the currency's move against USD made: `change` − `from_metal`, so the two add up exactly. */
  from_currency: ChangePart | null;
}

/** One part of a change: per unit in the answer's currency, and in percent of the previous close (2 decimals). */
export interface ChangePart {
  amount: number;
  pct: number;
}

/** The change of a session with no earlier bar (or no price): every number null, never a guess. */
export function noChange(sessionDate: string): PriceChange {
  return {
    state: 'unavailable',
    session_date: sessionDate,
    open: null,
    high: null,
    low: null,
    previous_close: null,
    previous_close_date: null,
    change: null,
    change_pct: null,
    fx_basis: null,
    from_metal: null,
    from_currency: null,
  };
}

export interface MovementQuery {
  /** The served price, USD per troy ounce; null when none is known. */
  priceUsdOz: number | null;
  /** ISO 4217, upper case, and its rate against USD in the table in use now. */
  currency: string;
  rate: number;
  /** Whether the table in use now is a fresh one (not the last live table, not the bundled snapshot). */
  fxFresh: boolean;
  unit: Unit;
}

/** Bars behind one metal's change: the session's own and the latest before it, with that one's FX table. */
interface HeldBars {
  loadedAt: number;
  current: DailyBar | null;
  prev: DailyBar | null;
  prevFx: CloseFx | null;
}

/** Seconds between re-reads of the bars from the store (other instances fold into them too). */
const RELOAD_S = 30;

// Keyed by metal and session date, so a read begun for one session and finishing after the next one
// opened never serves the old session's bar as the new one's.
const held = new Map<string, HeldBars>();
const loading = new Map<string, Promise<HeldBars>>();
const key = (metal: MetalId, date: string) => `${metal}|${date}`;

// This process's own folds reach the held bar at once, without waiting for the next re-read; a price
// observed before a close and served after it reaches the next session's previous close too.
onBar((metal, date, update) => {
  const h = held.get(key(metal, date));
  if (h) h.current = update(h.current);
  for (const [k, other] of held) if (k.startsWith(`${metal}|`) && other.prev?.d === date) other.prev = update(other.prev);
});

/** Reads a session's bars; a failed read keeps the bars held (none when there are none yet) and is retried on the next ask. */
function load(metal: MetalId, date: string): Promise<HeldBars> {
  const k = key(metal, date);
  const running = loading.get(k);
  if (running) return running;
  const p = (async (): Promise<HeldBars> => {
    const loadedAt = Date.now();
    const got = await safely(() => getStore().bars(BAR_SERIES[metal].series, '0000-01-01', date, 2), `read bars of ${metal}`);
    if (got === null) return held.get(k) ?? { loadedAt: 0, current: null, prev: null, prevFx: null };
    const current = got.at(-1)?.d === date ? got.pop()! : null;
    const prev = got.at(-1) ?? null;
    const prevFx = prev ? await safely(() => closeFx(prev.d), `read closing FX of ${prev.d}`) : null;
    const h: HeldBars = { loadedAt, current, prev, prevFx };
    // A fold announced while the read ran is newer than what the read saw.
    const mine = held.get(k)?.current;
    if (mine && (!current || mine.t1 > current.t1)) h.current = mine;
    for (const other of held.keys()) if (other.startsWith(`${metal}|`) && other < k) held.delete(other);
    held.set(k, h);
    return h;
  })().finally(() => loading.delete(k));
  loading.set(k, p);
  return p;
}

/** The bars for `date`: held ones at once (re-read in the background when old), else read now. */
async function barsFor(metal: MetalId, date: string): Promise<HeldBars> {
  const h = held.get(key(metal, date));
  if (!h) return load(metal, date);
  if (Date.now() - h.loadedAt > ttlMs(RELOAD_S)) void load(metal, date);
  return h;
}

/**
 * How `metal` moved in its current session, in the requested currency and unit. The price and the
 * previous close are converted with one table: the one recorded at that close only while the table in
 * force is fresh (`fx_basis: close`), else both at the table in force (`current`). `change` is the shown
 * price minus the shown previous close, exactly (decisions §20), and it is split into what the metal and
 * what the currency made of it (§32).
 */
export async function movement(metal: MetalId, q: MovementQuery, nowMs = Date.now()): Promise<PriceChange> {
  const session = sessionNow(nowMs);
  const { current, prev, prevFx } = await barsFor(metal, session.date);
  const none = noChange(session.date);
  if (q.priceUsdOz === null || !prev) return none;
  const decimals = UNIT_DECIMALS[q.unit];
  const closeRate = prevFx?.rates[q.currency];
  const basis = q.fxFresh && closeRate !== undefined && Number.isFinite(closeRate) && closeRate > 0 ? 'close' : 'current';
  const now = (usdOz: number) => priceIn(usdOz, q.rate, q.unit);
  const price = now(q.priceUsdOz);
  const previous = priceIn(prev.c, basis === 'close' ? closeRate! : q.rate, q.unit);
  const change = round(price - previous, decimals);
  const change_pct = previous > 0 ? round((change / previous) * 100, 2) : null;
  const split = splitChange({
    p0: prev.c,
    p1: q.priceUsdOz,
    f0: basis === 'close' ? closeRate! : null,
    change,
    change_pct,
    usd: q.currency === 'USD',
    unit: q.unit,
  });
  return {
    state: 'ok',
    session_date: session.date,
    open: current ? now(current.o) : null,
    high: current ? now(current.h) : null,
    low: current ? now(current.l) : null,
    previous_close: previous,
    previous_close_date: prev.d,
    change,
    change_pct,
    fx_basis: basis,
    ...split,
  };
}

/**
 * The change split into the metal's move and the currency's (decisions §32). With p the USD price per troy ounce
 * (0 at the previous close, 1 now) and F the currency per USD recorded at that close: the metal made (p₁ − p₀)·F₀
 * per unit, (p₁/p₀ − 1)·100 percent; the currency the rest, which is p₁·(F₁ − F₀) and (p₁/p₀)(F₁/F₀ − 1)·100 to
 * within rounding. The metal's part is rounded from that formula and the currency's is `change` − that part, so
 * the two shown add up to the shown change exactly (and the percents to `change_pct`). In USD the whole change is
 * the metal's, whatever table was recorded: no rate enters a USD price. In another currency without the closing
 * rate (`fx_basis: current`: an imported bar, or no fresh table now) the two cannot be told apart: both null.
 */
function splitChange(a: {
  p0: number;
  p1: number;
  /** The currency per USD at the previous close; null when not known. */
  f0: number | null;
  change: number;
  change_pct: number | null;
  usd: boolean;
  unit: Unit;
}): Pick<PriceChange, 'from_metal' | 'from_currency'> {
  if (a.change_pct === null || (!a.usd && a.f0 === null)) return { from_metal: null, from_currency: null };
  if (a.usd) return { from_metal: { amount: a.change, pct: a.change_pct }, from_currency: { amount: 0, pct: 0 } };
  const decimals = UNIT_DECIMALS[a.unit];
  const metal = { amount: priceIn(a.p1 - a.p0, a.f0!, a.unit), pct: round((a.p1 / a.p0 - 1) * 100, 2) };
  return {
    from_metal: metal,
    from_currency: { amount: round(a.change - metal.amount, decimals), pct: round(a.change_pct - metal.pct, 2) },
  };
}
