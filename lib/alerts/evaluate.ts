import { fxInUse } from '../prices/spot';
import { movement } from '../prices/movement';
import { observeServed } from '../prices/observers';
import type { Served } from '../prices/served-price';
import { toDataState } from '../sources/data-state';
import { feeds } from '../sources/feeds';
import type { MetalId } from '../reference/metals';
import type { Unit } from '../reference/units';
import { getStore, safely } from '../store';
import { alertsEnabled } from './config';
import { COUNTS_KEY, countEvent, kick, queueEvent } from './deliver';
import { priceIn } from '../prices/price-in';
import { ALERTS, groupKey, isLive, REPEAT_MIN_GAP_MS, statusOf, targetUrl, type Alert } from './model';
import { allAlerts, changedAlerts, loadAlert, removeAlert, updateAlert } from './records';

// Evaluation (decisions §28): on every new fresh reading of a metal, whatever took it (lib/prices/observers.ts),
// each alert's price is computed as spot computes it (the served USD price × the FX table in use, per unit,
// rounded as `xau.price`), and an alert fires on a crossing between two readings: previous < level ≤ current
// for `above`, current ≤ level < previous for `below`; `move_pct` P on the day change (spot's `change_pct`)
// crossing +P or −P. Never on a stale or unavailable price. Each instance holds the armed levels sorted per
// metal, currency and unit, read again only when the store's collection moved; a reading then costs two
// binary searches per group that holds alerts, and work only for the alerts it crosses. The previous reading
// is kept in the store, so instances and restarts compare with the same one; each reading is evaluated by
// one instance (a claim on it) and each crossing of an alert's generation delivered once (another claim).

interface Entry {
  level: number;
  id: string;
}

interface Group {
  metal: MetalId;
  currency: string;
  unit: Unit;
  above: Entry[];
  below: Entry[];
  /** move_pct alerts: +P (crossed upwards) and −P (crossed downwards) on the change in percent. */
  moveUp: Entry[];
  moveDown: Entry[];
  /** Repeating alerts that fired and wait to re-arm (few: they grow with the alerts that fire). */
  waiting: Alert[];
}

interface Index {
  version: number;
  groups: Map<MetalId, Map<string, Group>>;
  armed: number;
  failing: number;
  pending: number;
  /** Live (pending, active, failing) alerts per target URL. */
  perTarget: Map<string, number>;
  /** What each alert held added to the index when it was put in (so a change takes back exactly that). */
  held: Map<string, Held>;
}

interface Held {
  alert: Alert;
  status: ReturnType<typeof statusOf>;
  /** In a group's armed lists, or in its waiting list. */
  armed: boolean;
  waiting: boolean;
}

/** The previous reading of a metal, as the store keeps it. */
interface Previous {
  as_of: number;
  usd: number;
  /** Price per group key at that reading. */
  prices: Record<string, number>;
  /** Day change in percent per group key holding move_pct alerts. */
  moves: Record<string, number | null>;
}

/** Alerts that expired this long ago are removed from the store. */
const KEEP_EXPIRED_MS = 30 * 86_400_000;
const PREVIOUS_TTL_S = 30 * 86_400;
/** How long a fire claim is held: past any alert's life. */
const FIRE_CLAIM_S = 100 * 86_400;

let held: Index | null = null;

function emptyIndex(version: number): Index {
  return { version, groups: new Map(), armed: 0, failing: 0, pending: 0, perTarget: new Map(), held: new Map() };
}

function groupOf(idx: Index, a: Alert): Group {
  let byKey = idx.groups.get(a.metal);
  if (!byKey) idx.groups.set(a.metal, (byKey = new Map()));
  const key = groupKey(a);
  let g = byKey.get(key);
  if (!g) byKey.set(key, (g = { metal: a.metal, currency: a.currency, unit: a.unit, above: [], below: [], moveUp: [], moveDown: [], waiting: [] }));
  return g;
}

/** The sorted lists an armed alert stands in, with its level in each. */
function listsOf(g: Group, a: Alert): [Entry[], number][] {
  const { type, value } = a.condition;
  if (type === 'above') return [[g.above, value]];
  if (type === 'below') return [[g.below, value]];
  return [
    [g.moveUp, value],
    [g.moveDown, -value],
  ];
}

/** Puts one alert into the index: its counts, and its level in its group's sorted lists (a binary search each). */
function add(idx: Index, a: Alert, now: number, sorted: boolean): void {
  const status = statusOf(a, now);
  const entry: Held = { alert: a, status, armed: false, waiting: false };
  idx.held.set(a.id, entry);
  if (status === 'pending' || status === 'active' || status === 'failing') {
    const url = targetUrl(a.target);
    idx.perTarget.set(url, (idx.perTarget.get(url) ?? 0) + 1);
  }
  if (status === 'pending') idx.pending++;
  if (status === 'failing') idx.failing++;
  if (!isLive(a, now)) return;
  const g = groupOf(idx, a);
  if (!a.armed) {
    if (a.repeat) {
      g.waiting.push(a);
      entry.waiting = true;
    }
    return;
  }
  idx.armed++;
  entry.armed = true;
  for (const [list, level] of listsOf(g, a)) {
    const e = { level, id: a.id };
    if (sorted) list.splice(firstAbove(list, level, true), 0, e);
    else list.push(e);
  }
}

/** Takes back what `add` put in for the alert `id`. */
function remove(idx: Index, id: string): void {
  const h = idx.held.get(id);
  if (!h) return;
  idx.held.delete(id);
  const a = h.alert;
  if (h.status === 'pending' || h.status === 'active' || h.status === 'failing') {
    const url = targetUrl(a.target);
    const n = (idx.perTarget.get(url) ?? 1) - 1;
    if (n > 0) idx.perTarget.set(url, n);
    else idx.perTarget.delete(url);
  }
  if (h.status === 'pending') idx.pending--;
  if (h.status === 'failing') idx.failing--;
  const g = idx.groups.get(a.metal)?.get(groupKey(a));
  if (!g) return;
  if (h.waiting) g.waiting = g.waiting.filter((w) => w.id !== id);
  if (!h.armed) return;
  idx.armed--;
  for (const [list, level] of listsOf(g, a)) {
    for (let i = firstAbove(list, level, false); i < list.length && list[i].level === level; i++) {
      if (list[i].id === id) {
        list.splice(i, 1);
        break;
      }
    }
  }
}

function build(version: number, alerts: Alert[], now: number): Index {
  const idx = emptyIndex(version);
  for (const a of alerts) add(idx, a, now, false);
  const byLevel = (x: Entry, y: Entry) => x.level - y.level;
  for (const byKey of idx.groups.values())
    for (const g of byKey.values()) for (const list of [g.above, g.below, g.moveUp, g.moveDown]) list.sort(byLevel);
  return idx;
}

/**
 * The alerts as this instance holds them. When the store's collection has moved, only what changed since the
 * version held is read and patched in (a binary search per changed alert), so the cost follows the alerts that
 * change (created, fired, re-armed, deleted), not those armed; the whole collection is read at the first use, or
 * when the store cannot say what changed.
 */
export async function alertIndex(now = Date.now()): Promise<Index | null> {
  const version = await safely(() => getStore().docsVersion(ALERTS), 'read alerts version');
  if (version === null || (held && held.version === version)) return held;
  if (held) {
    const since = await safely(() => changedAlerts(held!.version), 'read changed alerts');
    if (since) {
      for (const id of since.removed) remove(held, id);
      for (const a of since.alerts) {
        remove(held, a.id);
        add(held, a, now, true);
      }
      held.version = since.version;
      await sweepExpired(since.alerts, now);
      return held;
    }
  }
  const got = await safely(() => allAlerts(), 'read alerts');
  if (!got) return held;
  held = build(got.version, got.alerts, now);
  await sweepExpired(got.alerts, now);
  return held;
}

/** Removes from the store the alerts expired long ago (among those just read). */
async function sweepExpired(alerts: Alert[], now: number): Promise<void> {
  const old = alerts.filter((a) => now - a.expires_at > KEEP_EXPIRED_MS || (a.state === 'pending' && now - a.pending_until > KEEP_EXPIRED_MS));
  for (const a of old) await safely(() => removeAlert(a.id), 'remove expired alert');
}

/** First index of `list` (sorted by level) whose level is above `x` (strict) or at least `x`. */
function firstAbove(list: Entry[], x: number, strict: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? list[mid].level > x : list[mid].level >= x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Entries with previous < level ≤ current. */
export function crossedUp(list: Entry[], previous: number, current: number): Entry[] {
  if (!(current > previous)) return [];
  const out: Entry[] = [];
  for (let i = firstAbove(list, previous, true); i < list.length && list[i].level <= current; i++) out.push(list[i]);
  return out;
}

/** Entries with current ≤ level < previous. */
export function crossedDown(list: Entry[], previous: number, current: number): Entry[] {
  if (!(current < previous)) return [];
  const out: Entry[] = [];
  for (let i = firstAbove(list, current, false); i < list.length && list[i].level < previous; i++) out.push(list[i]);
  return out;
}

/** Whether a repeating alert that fired may fire again: the price went back past its level by `rearm_pct`. */
function rearms(a: Alert, price: number, change: number | null): boolean {
  const { type, value } = a.condition;
  const r = a.rearm_pct / 100;
  if (type === 'above') return price <= value * (1 - r);
  if (type === 'below') return price >= value * (1 + r);
  return change !== null && Math.abs(change) <= value - a.rearm_pct;
}

// Readings are evaluated one after another per metal, in the order this instance took them.
const chains = new Map<MetalId, Promise<void>>();
const seen = new Map<MetalId, number>();

/** Hears one served price (lib/prices/observers.ts); a new fresh reading is evaluated after the answer. */
export function observe(metal: MetalId, served: Served): Promise<void> | undefined {
  if (!alertsEnabled()) return;
  const r = served.reading;
  if (r.status !== 'fresh' || r.value === null || r.asOf === null) return;
  if ((seen.get(metal) ?? -Infinity) >= r.asOf) return;
  seen.set(metal, r.asOf);
  const next = (chains.get(metal) ?? Promise.resolve()).then(() => evaluate(metal, served, r.asOf!, r.value!));
  chains.set(
    metal,
    next.catch(() => {}),
  );
  return next;
}

/** Registers the evaluation with the served prices and resumes the deliveries left queued (idempotent). */
export function startAlerts(): void {
  if (!alertsEnabled()) return;
  observeServed('alerts', observe);
  void kick();
}

async function evaluate(metal: MetalId, served: Served, asOf: number, usd: number): Promise<void> {
  const store = getStore();
  const idx = await alertIndex();
  // One instance evaluates each reading (a cron and a sampler, or two instances, may both take it).
  if (!(await safely(() => store.claim(`alerts:reading:${metal}:${asOf}`, 3600), 'claim alert reading'))) return;
  const prevKey = `alerts:previous:${metal}`;
  const prev = await safely(() => store.get<Previous>(prevKey), 'read previous reading');
  if (prev && prev.as_of >= asOf) return;
  const groups = [...(idx?.groups.get(metal)?.values() ?? [])];
  const now = Date.now();
  const fx = groups.length ? fxInUse(await feeds.fx.read(), now) : null;
  const next: Previous = { as_of: asOf, usd, prices: {}, moves: {} };
  const fired: { id: string; price: number; previous: number; change: number | null }[] = [];
  const rearm: string[] = [];
  for (const g of groups) {
    const rate = fx!.table[g.currency];
    if (!(rate > 0)) continue;
    const key = `${g.metal}/${g.currency}/${g.unit}`;
    const price = priceIn(usd, rate, g.unit);
    next.prices[key] = price;
    const previous = prev ? (prev.prices[key] ?? priceIn(prev.usd, rate, g.unit)) : null;
    const wantsMove = g.moveUp.length > 0 || g.waiting.some((a) => a.condition.type === 'move_pct');
    let change: number | null = null;
    if (wantsMove) {
      const moved = await movement(metal, { priceUsdOz: usd, currency: g.currency, rate, fxFresh: fx!.state.status === 'fresh', unit: g.unit }, now);
      change = moved.change_pct;
      next.moves[key] = change;
    }
    const prevChange = prev?.moves[key] ?? null;
    if (previous !== null) {
      for (const e of [...crossedUp(g.above, previous, price), ...crossedDown(g.below, previous, price)])
        fired.push({ id: e.id, price, previous, change });
    }
    if (change !== null && prevChange !== null) {
      for (const e of [...crossedUp(g.moveUp, prevChange, change), ...crossedDown(g.moveDown, prevChange, change)])
        fired.push({ id: e.id, price, previous: previous ?? price, change });
    }
    for (const a of g.waiting) if (rearms(a, price, change)) rearm.push(a.id);
  }
  await safely(() => store.setIfNewer(prevKey, next, PREVIOUS_TTL_S), 'save previous reading');
  const state = toDataState(served.reading, now);
  await eachAtMost(rearm, WRITES_AT_ONCE, (id) =>
    safely(
      () =>
        updateAlert(id, (a) => {
          if (a.armed) return false;
          a.armed = true;
          a.generation += 1;
        }),
      're-arm alert',
    ),
  );
  const seenIds = new Set<string>();
  const firing = fired.filter((f) => !seenIds.has(f.id) && seenIds.add(f.id));
  await eachAtMost(firing, WRITES_AT_ONCE, (f) => safely(() => fire(f.id, asOf, { ...f, data_state: state, source: served.source }), 'fire alert'));
  void kick();
}

/**
 * The alerts one reading fires or re-arms are written this many at a time: each is a few store round trips (a claim,
 * a compare-and-set, the queued delivery), network round trips on KV, and the alerts are independent of each other.
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

/** Fires one alert for the reading at `at` (ms): once per generation across instances, at most once in 10 min when it repeats. */
async function fire(id: string, at: number, c: Crossing): Promise<void> {
  const a = await loadAlert(id);
  if (!a || !isLive(a) || !a.armed) return;
  if (a.repeat && a.last_fired_at !== null && at - a.last_fired_at < REPEAT_MIN_GAP_MS) return;
  if (!(await getStore().claim(`alerts:fire:${id}:${a.generation}`, FIRE_CLAIM_S))) return;
  const updated = await updateAlert(id, (x) => {
    // Changed since it was read (deleted, disabled, re-armed into another generation): this crossing gives way.
    if (!isLive(x) || !x.armed || x.generation !== a.generation) return false;
    x.armed = false;
    x.last_fired_at = at;
    x.fired_count += 1;
    if (!x.repeat) x.state = 'fired';
  });
  if (!updated) return;
  await countEvent('fired');
  await queueEvent(updated, 'alert.triggered', {
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
  });
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

/** Test hook: forgets what this instance held and saw. */
export function resetEvaluation(): void {
  held = null;
  chains.clear();
  seen.clear();
}
