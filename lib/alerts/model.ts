import type { MetalId } from '../reference/metals';
import type { Unit } from '../reference/units';

// A price alert (decisions §28): one metal in one currency and unit, one condition, one target. The
// record the store keeps (collection ALERTS) and what its manage URL shows are both built from this.

export type ConditionType = 'above' | 'below' | 'move_pct';

export interface Condition {
  type: ConditionType;
  /** The level (in the alert's currency and unit) for above/below; P (percent, > 0) for move_pct. */
  value: number;
}

export type AlertStatus = 'pending' | 'active' | 'fired' | 'failing' | 'disabled' | 'expired';

export type EventType = 'alert.verification' | 'alert.triggered';

/** One attempt to deliver an event, as the manage URL lists it. */
export interface DeliveryRecord {
  at: string;
  type: EventType;
  webhook_id: string;
  attempt: number;
  /** The target's HTTP status, null when none came (timeout, network error, refused address). */
  http_status: number | null;
  outcome: 'delivered' | 'retrying' | 'failed';
  error?: string;
}

export interface WebhookTarget {
  type: 'webhook';
  url: string;
}

/** A browser's PushSubscription (decisions §28), sent with web-push (RFC 8291 aes128gcm, VAPID). */
export interface PushTarget {
  type: 'push';
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type Target = WebhookTarget | PushTarget;

/**
 * An event waiting in its alert's outbox (decisions §33): written in the same store operation as what caused it (the
 * fired mark, or the alert itself for its verification), so no crash or store error between the two can lose it. It
 * leaves the outbox once delivered or failed for good.
 */
export interface OutboxEvent {
  /** The `webhook-id`, the same on every attempt. */
  id: string;
  type: EventType;
  /** The JSON body, fixed at the event. */
  body: string;
  /** For a verification: the challenge the answer must hold. */
  challenge?: string;
  /** Attempts made so far. */
  attempt: number;
  /** When the event was written (ms): its first attempt is due then. */
  queued_at: number;
  /** When the last attempt ended (ms); the next is due ALERT_RETRY_SCHEDULE_S's delay after it. */
  last_at: number | null;
}

/** The URL a target is reached at (the per-target limit counts by it). */
export function targetUrl(t: Target): string {
  return t.type === 'webhook' ? t.url : t.endpoint;
}

export interface Alert {
  id: string;
  /** SHA-256 (hex) of the manage token; the token itself is only in the manage URL given at creation. */
  token_hash: string;
  metal: MetalId;
  currency: string;
  unit: Unit;
  condition: Condition;
  repeat: boolean;
  rearm_pct: number;
  target: Target;
  /** `whsec_` + base64 of the signing key (webhooks; empty for push). */
  secret: string;
  /** The public origin the alert was created from: a notification's click opens it. */
  origin: string;
  /** pending until the target answers the verification; fired once a one-shot alert fired. */
  state: 'pending' | 'active' | 'fired' | 'disabled';
  disabled_reason: string | null;
  /** Whether a crossing fires it now (a repeating alert that fired waits to re-arm). */
  armed: boolean;
  /**
   * When it was last armed (ms; null while pending): a crossing fires it only between two readings taken after this
   * (decisions §33). Alerts kept before v1.11 have none: their creation counts.
   */
  armed_at?: number | null;
  /** Moves with every re-arm: each crossing of a generation is claimed once across instances. */
  generation: number;
  last_fired_at: number | null;
  fired_count: number;
  delivered_count: number;
  /** Events in a row whose delivery failed; 3 disable the alert. */
  consecutive_failures: number;
  /** An attempt failed and the event waits for its retry. */
  retrying: boolean;
  created_at: number;
  expires_at: number;
  /** Until when an unverified alert waits for its target (24 h). */
  pending_until: number;
  deliveries: DeliveryRecord[];
  /** Events to deliver (absent on alerts kept before v1.11: none). */
  outbox?: OutboxEvent[];
}

/** Alerts expire this long after creation. */
export const ALERT_LIFETIME_MS = 90 * 86_400_000;
/** An alert whose target has not answered the verification expires this long after creation. */
export const PENDING_LIFETIME_MS = 86_400_000;
/** What a caller chooses when it creates an alert; the rest is the alert's first state. */
export type AlertFields = Pick<
  Alert,
  'id' | 'token_hash' | 'metal' | 'currency' | 'unit' | 'condition' | 'repeat' | 'rearm_pct' | 'target' | 'secret' | 'origin'
>;

/**
 * A new alert: nothing fired, delivered or failed yet. A browser that subscribed asked for alerts itself, so a push
 * alert is active and armed at once; a webhook is pending until its target answers the verification.
 */
export function newAlert(fields: AlertFields, now: number): Alert {
  const push = fields.target.type === 'push';
  return {
    ...fields,
    state: push ? 'active' : 'pending',
    disabled_reason: null,
    armed: push,
    armed_at: push ? now : null,
    generation: 0,
    last_fired_at: null,
    fired_count: 0,
    delivered_count: 0,
    consecutive_failures: 0,
    retrying: false,
    created_at: now,
    expires_at: now + ALERT_LIFETIME_MS,
    pending_until: now + PENDING_LIFETIME_MS,
    deliveries: [],
    outbox: [],
  };
}

/** A repeating alert fires at most once in this span. */
export const REPEAT_MIN_GAP_MS = 10 * 60_000;
export const DEFAULT_REARM_PCT = 0.5;
/** The manage URL lists this many of the latest attempts. */
export const KEPT_DELIVERIES = 10;
/** Deliveries running at once in one process (lib/alerts/deliver.ts). */
export const DELIVERIES_AT_ONCE = 32;
/**
 * Webhook deliveries running at once to one host, however many target URLs name it (and one at a time per target URL):
 * a stranger's host holds at most this many. The four push services are not strangers' (their endpoints go one at a
 * time each, within DELIVERIES_AT_ONCE).
 */
export const DELIVERIES_PER_HOST = 8;
/** Lookups of strangers' names running at once in one process (creations' checks and deliveries' connections together). */
export const LOOKUPS_AT_ONCE = 8;
/** How long one name's lookup may take (ms); then its queries are cancelled and the name counts as not resolving. */
export const LOOKUP_DEADLINE_MS = 3000;
/** Seconds a creation that found every lookup slot taken is told to wait (503, Retry-After). */
export const LOOKUPS_BUSY_RETRY_S = 5;
/** Events in a row that fail before the alert is disabled. */
export const FAILURES_TO_DISABLE = 3;
/** Live alerts one target URL may hold. */
export const ALERTS_PER_TARGET = 20;
/** Creations per client address per hour. */
export const CREATIONS_PER_HOUR = 10;
/**
 * Triggered events one alert's outbox may hold: a repeating alert whose target keeps failing stops firing at this many
 * (it stays armed, and fires again once they are delivered or failed), so one alert's record stays small.
 */
export const OUTBOX_LIMIT = 10;
/**
 * How long an alert that ended by time (expired, or never verified within 24 h) stays in the store, where its manage
 * URL says `expired`, before it leaves (decisions §33: within a day). One whose outbox still holds a triggered event
 * leaves once that is delivered or failed.
 */
export const ENDED_KEPT_MS = 6 * 3_600_000;

/** The collection of alerts in the store. */
export const ALERTS = 'alerts';
/** v1.10's collection of queued deliveries: what it still holds moves into the alerts' outboxes at start. */
export const LEGACY_JOBS = 'alert-jobs';

/** What the manage URL and the counts say of an alert at `now`. */
export function statusOf(a: Alert, now = Date.now()): AlertStatus {
  if (a.state === 'disabled') return 'disabled';
  if (now >= a.expires_at || (a.state === 'pending' && now >= a.pending_until)) return 'expired';
  if (a.state === 'pending') return 'pending';
  if (a.consecutive_failures > 0 || a.retrying) return 'failing';
  return a.state === 'fired' ? 'fired' : 'active';
}

/** Whether a crossing can fire the alert (verified, not disabled, not expired, not a one-shot that fired). */
export function isLive(a: Alert, now = Date.now()): boolean {
  const s = statusOf(a, now);
  return s === 'active' || s === 'failing';
}

/** Whether the alert counts against its target's limit of live alerts (pending, active or failing). */
export function holdsTarget(a: Alert, now = Date.now()): boolean {
  const s = statusOf(a, now);
  return s === 'pending' || s === 'active' || s === 'failing';
}

/** When the alert was last armed (v1.10's records: their creation). */
export function armedAt(a: Alert): number {
  return a.armed_at ?? a.created_at;
}

/** When the alert ends by time alone: its verification's deadline while pending, else its expiry (ms). */
export function endsAt(a: Alert): number {
  return a.state === 'pending' ? Math.min(a.pending_until, a.expires_at) : a.expires_at;
}

/** When an ended alert leaves the store (ms). */
export function leavesAt(a: Alert): number {
  return endsAt(a) + ENDED_KEPT_MS;
}

/** The alert's outbox (empty on a record kept before v1.11). */
export function outboxOf(a: Alert): OutboxEvent[] {
  return (a.outbox ??= []);
}

/** The key of the prices an alert compares: one per metal, currency and unit. */
export function groupKey(a: Pick<Alert, 'metal' | 'currency' | 'unit'>): string {
  return `${a.metal}/${a.currency}/${a.unit}`;
}
