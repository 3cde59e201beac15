import { BAR_SERIES, closeFx, onBar, type CloseFx } from './bars';
import { ttlMs } from '../core/config';
import { sessionNow } from '../calendar/clock';
import type { MetalId } from '../reference/metals';
import { getStore, safely, type DailyBar } from '../store';
import { perUnit, round, roundOrNull, UNIT_DECIMALS, type Unit } from '../reference/units';

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
  /** `close`: the previous close converted at the FX table recorded with its bar; `current`: at today's (imported bars). */
  fx_basis: 'close' | 'current' | null;
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
  };
}

export interface MovementQuery {
  /** The served price, USD per troy ounce; null when none is known. */
  priceUsdOz: number | null;
  /** ISO 4217, upper case, and its rate against USD in the table in use now. */
  currency: string;
  rate: number;
  unit: Unit;
}

/** Bars behind one metal's change: the current session's and the latest before it, with that one's FX table. */
interface Held {
  date: string;
  loadedAt: number;
  current: DailyBar | null;
  prev: DailyBar | null;
  prevFx: CloseFx | null;
}

/** Seconds between re-reads of the bars from the store (other instances fold into them too). */
const RELOAD_S = 30;

const held = new Map<MetalId, Held>();
const loading = new Map<MetalId, Promise<Held>>();

// This process's own folds reach the held bar at once, without waiting for the next re-read.
onBar((metal, date, update) => {
  const h = held.get(metal);
  if (h && h.date === date) h.current = update(h.current);
});

function load(metal: MetalId, date: string): Promise<Held> {
  const running = loading.get(metal);
  if (running) return running;
  const p = (async () => {
    const loadedAt = Date.now();
    const got = (await safely(() => getStore().bars(BAR_SERIES[metal].series, '0000-01-01', date, 2), `read bars of ${metal}`)) ?? [];
    const current = got.at(-1)?.d === date ? got.pop()! : null;
    const prev = got.at(-1) ?? null;
    const prevFx = prev ? await safely(() => closeFx(prev.d), `read closing FX of ${prev.d}`) : null;
    const h: Held = { date, loadedAt, current, prev, prevFx };
    held.set(metal, h);
    return h;
  })().finally(() => loading.delete(metal));
  loading.set(metal, p);
  return p;
}

/** The bars for `date`: held ones at once (re-read in the background when old), else read now. */
async function barsFor(metal: MetalId, date: string): Promise<Held> {
  const h = held.get(metal);
  if (h?.date !== date) return load(metal, date);
  if (Date.now() - h.loadedAt > ttlMs(RELOAD_S)) void load(metal, date);
  return h;
}

/** How `metal` moved in its current session, in the requested currency and unit. */
export async function movement(metal: MetalId, q: MovementQuery, nowMs = Date.now()): Promise<PriceChange> {
  const session = sessionNow(nowMs);
  const { current, prev, prevFx } = await barsFor(metal, session.date);
  const none = noChange(session.date);
  if (q.priceUsdOz === null || !prev) return none;
  const decimals = UNIT_DECIMALS[q.unit];
  const closeRate = prevFx?.rates[q.currency];
  const basis = closeRate !== undefined && Number.isFinite(closeRate) && closeRate > 0 ? 'close' : 'current';
  const now = (usdOz: number) => perUnit(usdOz * q.rate, q.unit);
  const price = now(q.priceUsdOz);
  const previous = perUnit(prev.c * (basis === 'close' ? closeRate! : q.rate), q.unit);
  return {
    state: 'ok',
    session_date: session.date,
    open: roundOrNull(current ? now(current.o) : null, decimals),
    high: roundOrNull(current ? now(current.h) : null, decimals),
    low: roundOrNull(current ? now(current.l) : null, decimals),
    previous_close: round(previous, decimals),
    previous_close_date: prev.d,
    change: round(price - previous, decimals),
    change_pct: round((price / previous - 1) * 100, 2),
    fx_basis: basis,
  };
}
