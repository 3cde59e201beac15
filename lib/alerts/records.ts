import crypto from 'node:crypto';
import { getStore } from '../store';
import { ALERTS, KEPT_DELIVERIES, type Alert, type DeliveryRecord } from './model';

// The alerts as the store keeps them: one document each in the collection ALERTS (embedded or KV, so
// they survive restarts and serverless instances). Writes move the collection's version, which tells
// every instance's evaluator (lib/alerts/evaluate.ts) to read them again.

export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
}

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function newSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Whether `token` is the alert's manage token (compared in constant time). */
export function tokenMatches(a: Alert, token: string | null): boolean {
  if (!token) return false;
  const want = Buffer.from(a.token_hash, 'hex');
  const got = Buffer.from(hashToken(token), 'hex');
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}

/** Stores a new alert (its id is fresh: every later write goes through updateAlert). */
export function saveAlert(a: Alert): Promise<void> {
  return getStore().putDoc(ALERTS, a.id, a);
}

export function loadAlert(id: string): Promise<Alert | null> {
  return getStore().getDoc<Alert>(ALERTS, id);
}

export function removeAlert(id: string): Promise<boolean> {
  return getStore().deleteDoc(ALERTS, id);
}

export async function allAlerts(): Promise<{ version: number; alerts: Alert[] }> {
  const { version, docs } = await getStore().docs<Alert>(ALERTS);
  return { version, alerts: docs };
}

/** The alerts written and the ids removed after `since`, or null when the whole collection must be read. */
export async function changedAlerts(since: number): Promise<{ version: number; alerts: Alert[]; removed: string[] } | null> {
  const got = await getStore().docsSince<Alert>(ALERTS, since);
  return got && { version: got.version, alerts: got.docs, removed: got.removed };
}

/** How many times an update reads the alert again after another write got there first, before it gives way. */
const UPDATE_TRIES = 8;

/**
 * Reads the alert, applies `change` and writes it back only if nothing wrote the alert meanwhile (the store's
 * compare-and-set on its revision): a write that lost the race reads the fresh record and applies `change` to it again,
 * so two instances changing one alert both take effect; an alert deleted meanwhile (its manage URL's DELETE) stays
 * deleted, whatever finishes later. Nothing is written when the alert is gone or `change` returns false (it gives way
 * on the record as it now is). Returns the alert as written, or null.
 */
export async function updateAlert(id: string, change: (a: Alert) => boolean | void): Promise<Alert | null> {
  const store = getStore();
  for (let i = 0; i < UPDATE_TRIES; i++) {
    const held = await store.getDocRev<Alert>(ALERTS, id);
    if (!held) return null;
    const a = held.doc;
    if (change(a) === false) return null;
    if (await store.putDocIf(ALERTS, id, a, held.rev)) return a;
  }
  throw new Error(`alert ${id} kept changing under ${UPDATE_TRIES} updates in a row`);
}

/** Adds one attempt to the alert's latest deliveries. */
export function noteDelivery(a: Alert, d: DeliveryRecord): void {
  a.deliveries = [d, ...a.deliveries].slice(0, KEPT_DELIVERIES);
}
