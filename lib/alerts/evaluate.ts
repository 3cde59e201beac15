import { fxInUse } from '../prices/spot';
import { movement } from '../prices/movement';
import { observeServed } from '../prices/observers';
import type { Served } from '../prices/served-price';
import { toDataState } from '../sources/data-state';
import { feeds } from '../sources/feeds';
import type { MetalId } from '../reference/metals';
import { getStore, safely } from '../store';
import { alertIndex, crossedDown, crossedUp, resetAlertIndex, type Entry } from './alert-index';
import { alertsEnabled } from './config';
import { adoptLegacyJobs, COUNTS_KEY, countEvent, kick, outboxEvent } from './deliver';
import { priceIn } from '../prices/price-in';
import { armedAt, groupKey, isLive, OUTBOX_LIMIT, outboxOf, REPEAT_MIN_GAP_MS, type Alert } from './model';
import { updateAlert } from './records';

// Evaluation (decisions §28, §33): on every new fresh reading of a metal, whatever took it (lib/prices/observers.ts),
// each alert's price is computed as spot computes it (the served USD price × the FX table in use, per unit,
// rounded as `xau.price`), and an alert fires on a crossing between two readings: previous < level ≤ current
// for `above`, current ≤ level < previous for `below`; `move_pct` P on the day change (spot's `change_pct`)
// crossing +P or −P. Never on a stale or unavailable price, and only when the previous reading was taken after the
// alert was armed (a crossing before it asked does not count). The previous reading is kept in the store, so instances
// and restarts compare with the same one; each reading is evaluated by one instance (a claim on it). The crossing's
// event is written in the same compare-and-set as the fired mark (the alert's outbox): both or neither, so a crash or a
// store error cannot lose the event or leave a one-shot alert fired without one. A reading whose fires could not be
// written is not kept as the previous one, so the next reading finds the same crossing again.
// The same price read again (the upstream has nothing newer) is evaluated too while an alert armed after the previous
// reading waits for one taken after it: it becomes that previous reading.

/** The previous reading of a metal, as the store keeps it. */
interface LastReading {
  /** When the service took the reading (its fetch, ms): setIfNewer keeps the latest one taken. */
  as_of: number;
  /** The price's own time (the upstream's timestamp, ms). */
  price_as_of: number;
  usd: number;
  /** Price per group key at that reading. */
  prices: Record<string, number>;
  /** Day change in percent per group key holding move_pct alerts. */
  moves: Record<string, number | null>;
}

const LAST_READING_TTL_S = 30 * 86_400;
const lastReadingKey = (metal: MetalId) => `alerts:last-reading:${metal}`;

interface Evaluation {
  /** Readings are evaluated one after another per metal, in the order this process took them. */
  chains: Map<MetalId, Promise<void>>;
  /** The latest reading this process heard per metal: its price's time and when it was taken. */
  seen: Map<MetalId, { asOf: number; takenAt: number }>;
  /** When the previous reading this process knows of was taken, per metal. */
  previousTaken: Map<MetalId, number>;
  started: boolean;
  timer: NodeJS.Timeout | undefined;
}

// Once per process, whichever bundle (instrumentation's or the routes') hears the reading.
const SLOT = Symbol.for('goldapi.alerts.evaluation');
const slot = globalThis as { [SLOT]?: Evaluation };
function evaluation(): Evaluation {
  return (slot[SLOT] ??= { chains: new Map(), seen: new Map(), previousTaken: new Map(), started: false, timer: undefined });
}

/** Hears one served price (lib/prices/observers.ts); a new fresh reading is evaluated after the answer. */
export function observe(metal: MetalId, served: Served): Promise<void> | undefined {
  if (!alertsEnabled()) return;
  const r = served.reading;
  if (r.status !== 'fresh' || r.value === null || r.asOf === null) return;
  const asOf = r.asOf;
  const takenAt = r.fetchedAt ?? asOf;
  const e = evaluation();
  const last = e.seen.get(metal);
  if (last && (asOf < last.asOf || (asOf === last.asOf && takenAt <= last.takenAt))) return;
  e.seen.set(metal, { asOf, takenAt });
  const again = last !== undefined && asOf === last.asOf;
  const value = r.value;
  // Then the due deliveries start (not awaited): on a platform that freezes instances, the cron's readings are what
  // wakes a retry that fell due in between.
  const next = (e.chains.get(metal) ?? Promise.resolve())
    .then(() => evaluate(metal, served, { asOf, takenAt, usd: value, again }))
    .then(() => void kick());
  e.chains.set(
    metal,
    next.catch(() => {}),
  );
  return next;
}

/** How often an instance looks at its alerts when nothing else does (ended ones leave, due retries start). */
const LOOK_EVERY_MS = 3_600_000;

/**
 * Registers the evaluation with the served prices, moves v1.10's queued deliveries into the outboxes, resumes the
 * deliveries left due, and looks at the alerts every hour (idempotent; once per process).
 */
export function startAlerts(): void {
  if (!alertsEnabled()) return;
  observeServed('alerts', observe);
  const e = evaluation();
  if (e.started) return;
  e.started = true;
  void adoptLegacyJobs().then(() => kick());
  e.timer = setInterval(() => void alertIndex().then(() => kick()), LOOK_EVERY_MS);
  e.timer.unref();
}

interface Taken {
  /** The price's own time (ms). */
  asOf: number;
  /** When the service took it (ms). */
  takenAt: number;
  usd: number;
  /** The same price as the latest heard, read again. */
  again: boolean;
}

async function evaluate(metal: MetalId, served: Served, r: Taken): Promise<void> {
  const store = getStore();
  const e = evaluation();
  const idx = await alertIndex();
  // A price read again matters only while an alert armed after the previous reading waits for one taken after it.
  if (r.again && !((idx?.newestArmed.get(metal) ?? 0) > (e.previousTaken.get(metal) ?? 0))) return;
  // One instance evaluates each reading (a cron and a sampler, or two instances, may both take it).
  const claim = `alerts:reading:${metal}:${r.asOf}${r.again ? `:${r.takenAt}` : ''}`;
  if (!(await safely(() => store.claim(claim, 3600), 'claim alert reading'))) return;
  const prev = await safely(() => store.get<LastReading>(lastReadingKey(metal)), 'read previous reading');
  if (prev) notePrevious(e, metal, prev.as_of);
  if (prev && (prev.price_as_of > r.asOf || (prev.price_as_of === r.asOf && prev.as_of >= r.takenAt))) return;
  const groups = [...(idx?.groups.get(metal)?.values() ?? [])];
  const now = Date.now();
  const fx = groups.length ? fxInUse(await feeds.fx.read(), now) : null;
  const next: LastReading = { as_of: r.takenAt, price_as_of: r.asOf, usd: r.usd, prices: {}, moves: {} };
  const fired: { id: string; price: number; previous: number; change: number | null }[] = [];
  const rearm: string[] = [];
  /** Crossed entries of alerts armed by the time the previous reading was taken. */
  const since = (entries: Entry[]) => entries.filter((x) => prev !== null && x.armedAt <= prev.as_of);
  for (const g of groups) {
    const rate = fx!.table[g.currency];
    if (!(rate > 0)) continue;
    const key = groupKey(g);
    const price = priceIn(r.usd, rate, g.unit);
    next.prices[key] = price;
    const previous = prev ? (prev.prices[key] ?? priceIn(prev.usd, rate, g.unit)) : null;
    const wantsMove = g.moveUp.length > 0 || g.waiting.some((a) => a.condition.type === 'move_pct');
    let change: number | null = null;
    if (wantsMove) {
      const moved = await movement(
        metal,
        { priceUsdOz: r.usd, currency: g.currency, rate, fxFresh: fx!.state.status === 'fresh', unit: g.unit },
        now,
      );
      change = moved.change_pct;
      next.moves[key] = change;
    }
    const prevChange = prev?.moves[key] ?? null;
    if (previous !== null) {
      for (const x of since([...crossedUp(g.above, previous, price), ...crossedDown(g.below, previous, price)]))
        fired.push({ id: x.id, price, previous, change });
    }
    if (change !== null && prevChange !== null) {
      for (const x of since([...crossedUp(g.moveUp, prevChange, change), ...crossedDown(g.moveDown, prevChange, change)]))
        fired.push({ id: x.id, price, previous: previous ?? price, change });
    }
    for (const a of g.waiting) if (rearms(a, price, change)) rearm.push(a.id);
  }
  const state = toDataState(served.reading, now);
  // Re-armed at this reading: the next reading's crossing from this one counts.
  await eachAtMost(rearm, WRITES_AT_ONCE, (id) =>
    safely(
      () =>
        updateAlert(id, (a) => {
          if (a.armed) return false;
          a.armed = true;
          a.armed_at = r.takenAt;
          a.generation += 1;
        }),
      're-arm alert',
    ),
  );
  const seenIds = new Set<string>();
  const firing = fired.filter((f) => !seenIds.has(f.id) && seenIds.add(f.id));
  let written = true;
  await eachAtMost(firing, WRITES_AT_ONCE, async (f) => {
    const ok = await safely(() => fire(f.id, r.asOf, prev!.as_of, { ...f, data_state: state, source: served.source }), 'fire alert');
    if (ok === null) written = false;
  });
  // Kept as the previous reading only once every crossing it found is written: else the next reading finds them again.
  if (written && (await safely(() => store.setIfNewer(lastReadingKey(metal), next, LAST_READING_TTL_S), 'save previous reading'))) {
    notePrevious(e, metal, next.as_of);
  }
}

function notePrevious(e: Evaluation, metal: MetalId, takenAt: number): void {
  if (takenAt > (e.previousTaken.get(metal) ?? 0)) e.previousTaken.set(metal, takenAt);
}

/**
 * The alerts one reading fires or re-arms are written this many at a time: each is a read and a compare-and-set, network
 * round trips on KV, and the alerts are independent of each other.
 */
const WRITES_AT_ONCE = 16;

/** Runs `work` on every item, at most `n` at once. */
async function eachAtMost<T>(items: T[], n: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

interface Crossing {
  price: number;
  previous: number;
  change: number | null;
  data_state: ReturnType<typeof toDataState>;
  source: string;
}

/**
 * Fires one alert for the reading at `at` (the price's time, ms) whose previous reading was taken at `previousTaken`:
 * the fired mark and the event in its outbox in one compare-and-set, so two instances firing it at once write one of
 * them, and a crash or a store error leaves both or neither. Gives way when the alert, as it is now, is no longer armed,
 * was armed after the previous reading, fired within 10 minutes (repeating), or holds OUTBOX_LIMIT events already.
 * Returns whether it fired; throws when the store failed.
 */
async function fire(id: string, at: number, previousTaken: number, c: Crossing): Promise<boolean> {
  const written = await updateAlert(id, (a) => {
    if (!isLive(a) || !a.armed || armedAt(a) > previousTaken) return false;
    if (a.repeat && a.last_fired_at !== null && at - a.last_fired_at < REPEAT_MIN_GAP_MS) return false;
    const outbox = outboxOf(a);
    if (outbox.filter((e) => e.type === 'alert.triggered').length >= OUTBOX_LIMIT) return false;
    a.armed = false;
    a.last_fired_at = at;
    a.fired_count += 1;
    if (!a.repeat) a.state = 'fired';
    outbox.push(
      outboxEvent(a, 'alert.triggered', {
        alert_id: a.id,
        metal: a.metal,
        currency: a.currency,
        unit: a.unit,
        condition: a.condition,
        price: c.price,
        previous: c.previous,
        ...(a.condition.type === 'move_pct' ? { change_pct: c.change } : {}),
        crossed_at: new Date(at).toISOString(),
        data_state: c.data_state,
        source: c.source,
      }),
    );
  });
  if (written) await countEvent('fired');
  return written !== null;
}

/** Whether a repeating alert that fired may fire again: the price went back past its level by `rearm_pct`. */
function rearms(a: Alert, price: number, change: number | null): boolean {
  const { type, value } = a.condition;
  const r = a.rearm_pct / 100;
  if (type === 'above') return price <= value * (1 - r);
  if (type === 'below') return price >= value * (1 + r);
  return change !== null && Math.abs(change) <= value - a.rearm_pct;
}

export interface AlertCounts {
  enabled: boolean;
  armed: number;
  pending: number;
  failing: number;
  fired: number;
  delivered: number;
  failed: number;
}

/** What /api/v1/status and /metrics count: the alerts held now, and the events since the store began (every instance). */
export async function alertCounts(now = Date.now()): Promise<AlertCounts> {
  const [idx, totals] = await Promise.all([alertIndex(now), safely(() => getStore().counts([COUNTS_KEY]), 'read alert counts')]);
  const t = totals?.[0] ?? {};
  return {
    enabled: alertsEnabled(),
    armed: idx?.armed ?? 0,
    pending: idx?.pending ?? 0,
    failing: idx?.failing ?? 0,
    fired: t.fired ?? 0,
    delivered: t.delivered ?? 0,
    failed: t.failed ?? 0,
  };
}

/** Test hook: forgets what this process held and saw (the store keeps what it holds). */
export function resetEvaluation(): void {
  const e = evaluation();
  clearInterval(e.timer);
  slot[SLOT] = undefined;
  resetAlertIndex();
}
