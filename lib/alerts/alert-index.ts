import type { MetalId } from '../reference/metals';
import type { Unit } from '../reference/units';
import { getStore, safely } from '../store';
import { afterAnswer } from '../store/after-answer';
import {
  ALERTS,
  armedAt,
  endsAt,
  groupKey,
  holdsTarget,
  isLive,
  leavesAt,
  outboxOf,
  statusOf,
  targetUrl,
  type Alert,
  type AlertStatus,
} from './model';
import { allAlerts, changedAlerts, removeAlert } from './records';

// The alerts as this process holds them (decisions §28, §33): the armed levels sorted per metal, currency and unit (a
// reading costs two binary searches per group, and work only for the alerts it crosses), the counts, the alerts of
// each target, the alerts whose outbox waits for delivery, and when each alert ends by time. It follows the store's
// collection: only what changed since the version held is read and patched in. An alert whose time runs out leaves the
// armed lists, the counts and its target's limit at that moment (a heap of deadlines), and the store some hours later.
// One index per process: Next bundles instrumentation.ts apart from the routes, each with its own copy of this module,
// so it lives on globalThis, as the store does (lib/store/index.ts).

export interface Entry {
  level: number;
  id: string;
  /** When the alert was armed (ms): a crossing counts only from a previous reading taken at or after it. */
  armedAt: number;
}

export interface Group {
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

export interface AlertIndex {
  version: number;
  groups: Map<MetalId, Map<string, Group>>;
  armed: number;
  failing: number;
  pending: number;
  /** Every alert held, by target URL (webhook URL or push endpoint). */
  byTarget: Map<string, Set<string>>;
  /** Alerts whose outbox holds events to deliver. */
  outbox: Map<string, Alert>;
  /** Per metal, the latest time one of its alerts was armed: a reading taken again is evaluated while one waits for a previous reading taken after it. */
  newestArmed: Map<MetalId, number>;
  /** What each alert held added to the index when it was put in (so a change takes back exactly that). */
  held: Map<string, HeldAlert>;
  /** When an alert's status next changes by time alone, or when it leaves the store: soonest on top. */
  deadlines: Deadline[];
}

interface HeldAlert {
  alert: Alert;
  status: AlertStatus;
  /** In a group's armed lists, or in its waiting list. */
  armed: boolean;
  waiting: boolean;
  /** The deadline pushed for it (a popped one that differs is stale). */
  deadline: number;
}

interface Deadline {
  at: number;
  id: string;
}

const SLOT = Symbol.for('goldapi.alerts.index');
interface State {
  index: AlertIndex | null;
  /** The read of what changed, while one runs (callers at once share it). */
  following: Promise<void> | null;
  /** Ended alerts to remove from the store, and whether the removal runs. */
  leaving: Set<string>;
  sweeping: boolean;
}
const slot = globalThis as { [SLOT]?: State };

function state(): State {
  return (slot[SLOT] ??= { index: null, following: null, leaving: new Set(), sweeping: false });
}

function emptyIndex(version: number): AlertIndex {
  return {
    version,
    groups: new Map(),
    armed: 0,
    failing: 0,
    pending: 0,
    byTarget: new Map(),
    outbox: new Map(),
    newestArmed: new Map(),
    held: new Map(),
    deadlines: [],
  };
}

function groupOf(idx: AlertIndex, a: Alert): Group {
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

/** Puts one alert into the index: its counts, its target, its outbox, its deadline, and its level in its group's sorted lists. */
function add(idx: AlertIndex, a: Alert, now: number, sorted: boolean, before?: HeldAlert): void {
  const status = statusOf(a, now);
  const deadline = now < endsAt(a) ? endsAt(a) : leavesAt(a);
  const entry: HeldAlert = { alert: a, status, armed: false, waiting: false, deadline };
  idx.held.set(a.id, entry);
  // A deadline unchanged since the alert was last put in is in the heap already.
  if (before?.deadline !== deadline) pushDeadline(idx.deadlines, { at: deadline, id: a.id });
  const url = targetUrl(a.target);
  let ids = idx.byTarget.get(url);
  if (!ids) idx.byTarget.set(url, (ids = new Set()));
  ids.add(a.id);
  if (outboxOf(a).length > 0) idx.outbox.set(a.id, a);
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
  const since = armedAt(a);
  if (since > (idx.newestArmed.get(a.metal) ?? 0)) idx.newestArmed.set(a.metal, since);
  for (const [list, level] of listsOf(g, a)) {
    const e = { level, id: a.id, armedAt: since };
    if (sorted) list.splice(firstAbove(list, level, true), 0, e);
    else list.push(e);
  }
}

/** Takes back what `add` put in for the alert `id`; returns what it held. */
function remove(idx: AlertIndex, id: string): HeldAlert | undefined {
  const h = idx.held.get(id);
  if (!h) return undefined;
  idx.held.delete(id);
  const a = h.alert;
  const url = targetUrl(a.target);
  const ids = idx.byTarget.get(url);
  ids?.delete(id);
  if (ids?.size === 0) idx.byTarget.delete(url);
  idx.outbox.delete(id);
  if (h.status === 'pending') idx.pending--;
  if (h.status === 'failing') idx.failing--;
  const g = idx.groups.get(a.metal)?.get(groupKey(a));
  if (!g) return h;
  if (h.waiting) g.waiting = g.waiting.filter((w) => w.id !== id);
  if (!h.armed) return h;
  idx.armed--;
  for (const [list, level] of listsOf(g, a)) {
    for (let i = firstAbove(list, level, false); i < list.length && list[i].level === level; i++) {
      if (list[i].id === id) {
        list.splice(i, 1);
        break;
      }
    }
  }
  return h;
}

/** Puts `a` in place of what the index held for it. */
function replace(idx: AlertIndex, a: Alert, now: number): void {
  add(idx, a, now, true, remove(idx, a.id));
}

function build(version: number, alerts: Alert[], now: number): AlertIndex {
  const idx = emptyIndex(version);
  for (const a of alerts) add(idx, a, now, false);
  const byLevel = (x: Entry, y: Entry) => x.level - y.level;
  for (const byKey of idx.groups.values())
    for (const g of byKey.values()) for (const list of [g.above, g.below, g.moveUp, g.moveDown]) list.sort(byLevel);
  return idx;
}

/**
 * The alerts as this process holds them, as of `now`. When the store's collection has moved, only what changed since
 * the version held is read and patched in (a binary search per changed alert), so the cost follows the alerts that
 * change (created, fired, re-armed, deleted), not those armed; the whole collection is read at the first use, or when
 * the store cannot say what changed. Null while the store cannot be read and nothing is held.
 */
export async function alertIndex(now = Date.now()): Promise<AlertIndex | null> {
  const s = state();
  for (;;) {
    const version = await safely(() => getStore().docsVersion(ALERTS), 'read alerts version');
    if (version === null || s.index?.version === version) break;
    if (s.following) {
      // Another caller is reading the changes: wait for it, then look again.
      await s.following;
      continue;
    }
    s.following = follow(s, now).finally(() => (s.following = null));
    await s.following;
    break;
  }
  if (s.index) passDeadlines(s.index, now);
  return s.index;
}

async function follow(s: State, now: number): Promise<void> {
  const held = s.index;
  if (held) {
    const since = await safely(() => changedAlerts(held.version), 'read changed alerts');
    if (since) {
      for (const id of since.removed) remove(held, id);
      for (const a of since.alerts) replace(held, a, now);
      held.version = since.version;
      return;
    }
  }
  const got = await safely(() => allAlerts(), 'read alerts');
  if (got) s.index = build(got.version, got.alerts, now);
}

/**
 * Handles every deadline that has come: an alert whose time ran out is put in again (expired: out of the armed lists,
 * the counts and its target's limit); one ended long enough ago leaves the store, unless a triggered event of its
 * outbox still waits (it leaves once that is delivered or failed).
 */
function passDeadlines(idx: AlertIndex, now: number): void {
  const heap = idx.deadlines;
  const leave: string[] = [];
  while (heap.length > 0 && heap[0].at <= now) {
    const d = popDeadline(heap);
    const h = idx.held.get(d.id);
    if (!h || h.deadline !== d.at) continue;
    const a = h.alert;
    if (now < leavesAt(a)) replace(idx, a, now);
    else if (outboxOf(a).some((e) => e.type === 'alert.triggered')) {
      // Its event goes first: the write that takes it out of the outbox puts the alert in again, with this deadline.
      h.deadline = Number.NaN;
    } else leave.push(a.id);
  }
  if (leave.length > 0) sweep(leave);
}

/** Removes ended alerts from the store, one at a time, behind whatever asked (never on its path). */
function sweep(ids: string[]): void {
  const s = state();
  for (const id of ids) s.leaving.add(id);
  if (s.sweeping) return;
  s.sweeping = true;
  const run = (async () => {
    for (const id of s.leaving) {
      s.leaving.delete(id);
      await safely(() => removeAlert(id), 'remove ended alert');
    }
  })().finally(() => (s.sweeping = false));
  afterAnswer(run);
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

/** Live alerts (pending, active, failing) on the target `url` at `now`: what its limit counts. */
export function liveOnTarget(idx: AlertIndex, url: string, now = Date.now()): number {
  let n = 0;
  for (const id of idx.byTarget.get(url) ?? []) {
    const h = idx.held.get(id);
    if (h && holdsTarget(h.alert, now)) n++;
  }
  return n;
}

/** The ids of every alert held on the target `url`. */
export function alertsOnTarget(idx: AlertIndex, url: string): string[] {
  return [...(idx.byTarget.get(url) ?? [])];
}

// A binary min-heap of deadlines.
function pushDeadline(heap: Deadline[], d: Deadline): void {
  heap.push(d);
  for (let i = heap.length - 1; i > 0;) {
    const parent = (i - 1) >>> 1;
    if (heap[parent].at <= heap[i].at) break;
    [heap[parent], heap[i]] = [heap[i], heap[parent]];
    i = parent;
  }
}

function popDeadline(heap: Deadline[]): Deadline {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && heap[l].at < heap[m].at) m = l;
      if (r < heap.length && heap[r].at < heap[m].at) m = r;
      if (m === i) break;
      [heap[m], heap[i]] = [heap[i], heap[m]];
      i = m;
    }
  }
  return top;
}

/** Test hook: forgets the index this process held. */
export function resetAlertIndex(): void {
  const s = state();
  s.index = null;
  s.leaving.clear();
}
