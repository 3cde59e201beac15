import { BAR_SERIES, onBar } from '../prices/bars';
import { daysBefore } from '../calendar/dates';
import type { MetalId } from '../reference/metals';
import { getStore, type BarsVersion, type DailyBar } from '../store';

// Each metal's daily spot series as this instance holds it (decisions §23): read whole once, then kept
// current through the version the store moves with every write to it (lib/store/types.ts, BarsVersion),
// so no request reads or scans the series itself. The version is asked for at most once a second per
// metal (one small read, which every request of that second shares); the bars are read again only when
// it moved: the newest few when only folds moved it (a fold changes the bar of its own session), the
// whole series when an import or a trim did (the epoch moved). This process's own folds have the version
// asked for at the next request. A store that fails meanwhile leaves the series held as it was.

/** How long one version read answers for a metal, ms. */
const CHECK_MS = 1000;
/**
 * A fold writes the bar of the session in progress, never one older than the newest bar held: from this many
 * days before that bar, a re-read covers every session folded since, with room for instances whose clocks differ.
 */
const TAIL_DAYS = 7;

/** One metal's bars as read at `at`, oldest first, all dates within the store's retention or older (trims come later). Never changed: a change makes a new one. */
export interface HeldSeries {
  readonly at: BarsVersion;
  readonly bars: readonly DailyBar[];
}

interface Slot {
  held: HeldSeries | null;
  /** When the held version was last confirmed (ms); 0 asks again at the next request. */
  checkedAt: number;
  /** Folds of this process announced so far: one announced while a read ran may be newer than what it saw. */
  folds: number;
  running: Promise<HeldSeries> | null;
}

// One holder per process, shared by every bundle of this module (each route is bundled apart).
const slots = ((globalThis as Record<symbol, unknown>)[Symbol.for('goldapi.spotSeries')] ??= new Map<MetalId, Slot>()) as Map<MetalId, Slot>;

const listening = Symbol.for('goldapi.spotSeries.listening');
if (!(globalThis as Record<symbol, unknown>)[listening]) {
  (globalThis as Record<symbol, unknown>)[listening] = true;
  // This process folded into a bar (announced at the observation and again once stored): ask the store next time.
  onBar((metal) => {
    const slot = slots.get(metal);
    if (!slot) return;
    slot.folds++;
    slot.checkedAt = 0;
  });
}

function slotOf(metal: MetalId): Slot {
  let slot = slots.get(metal);
  if (!slot) slots.set(metal, (slot = { held: null, checkedAt: 0, folds: 0, running: null }));
  return slot;
}

/**
 * The metal's series, current to within CHECK_MS of another instance's write (at once for this process's own
 * folds). Throws the store's error only when nothing is held yet; otherwise a failed read keeps what is held.
 */
export async function spotSeries(metal: MetalId, nowMs = Date.now()): Promise<HeldSeries> {
  const slot = slotOf(metal);
  if (slot.held && nowMs - slot.checkedAt < CHECK_MS) return slot.held;
  slot.running ??= refresh(metal, slot).finally(() => (slot.running = null));
  return slot.running;
}

async function refresh(metal: MetalId, slot: Slot): Promise<HeldSeries> {
  const checkedAt = Date.now();
  const folds = slot.folds;
  const held = slot.held;
  let next: HeldSeries;
  try {
    next = await read(BAR_SERIES[metal].series, held);
  } catch (err) {
    if (!held) throw err;
    // The store logged its failure; until it answers, the bars held are the best known (asked again in a second).
    next = held;
  }
  slot.held = next;
  slot.checkedAt = slot.folds === folds ? checkedAt : 0;
  return next;
}

/** The series after `held`: itself while the version stands, else its newest bars read again, or all of them. */
async function read(series: string, held: HeldSeries | null): Promise<HeldSeries> {
  const store = getStore();
  if (!held) return store.allBars(series);
  const at = await store.barsVersion(series);
  if (at.version === held.at.version && at.epoch === held.at.epoch) return held;
  const newest = held.bars[held.bars.length - 1];
  if (at.epoch !== held.at.epoch || !newest) return store.allBars(series);
  // Only folds since: the bars from a few days before the newest held one replace the held ones from there.
  const from = daysBefore(newest.d, TAIL_DAYS);
  const tail = await store.bars(series, from, '9999-12-31');
  return { at, bars: [...held.bars.filter((b) => b.d < from), ...tail] };
}
