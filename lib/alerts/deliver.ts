import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { getStore, safely } from '../store';
import { afterAnswer } from '../store/after-answer';
import { alertIndex, alertsOnTarget } from './alert-index';
import { deliveryTimeoutMs, retryScheduleS } from './config';
import {
  DELIVERIES_AT_ONCE,
  DELIVERIES_PER_HOST,
  FAILURES_TO_DISABLE,
  LEGACY_JOBS,
  outboxOf,
  targetUrl,
  type Alert,
  type DeliveryRecord,
  type EventType,
  type OutboxEvent,
} from './model';
import { notificationOf, pushRequest } from './push';
import { loadAlert, newId, noteDelivery, removeAlert, updateAlert } from './records';
import { guardedLookup, parseTarget, peerPermitted, type CheckedTarget } from './targets';

// Deliveries (decisions §28, §33): webhooks per Standard Webhooks, and Web Push. Each event waits in its alert's outbox
// (lib/alerts/model.ts OutboxEvent), written with what caused it, so a retry due in five hours survives restarts and
// serverless instances; any instance runs a due attempt once (a claim per event and attempt, which expires: an
// instance that dies holding one blocks the attempt only until then, and the event is sent again with the same
// `webhook-id`). Each attempt is signed again with its own `webhook-timestamp`. Outcomes: 2xx delivered; a timeout,
// a network error, 429 or 5xx retried after ALERT_RETRY_SCHEDULE_S; 410 disables a webhook alert; a push service's
// 404 or 410 removes every alert of that subscription; anything else (another 4xx, a redirect, which is never
// followed, a refused address) fails the event at once. Three events in a row that fail disable the alert. The
// verification event activates the alert when the answer is 2xx with the challenge in its body.
// One pump per process (on globalThis, whichever bundle kicks it) runs at most DELIVERIES_AT_ONCE attempts at once,
// one at a time per target URL and DELIVERIES_PER_HOST per webhook host, so a target that hangs holds its own slot
// until its 10 s timeout and the others go on.

/** A delivery's claim outlasts its timeout by this much (seconds): the store writes after the answer. */
const CLAIM_MARGIN_S = 15;
/** How long an event waits after the store failed it (ms). */
const STORE_PAUSE_MS = 30_000;
/** How long an attempt another instance holds is left alone before its claim is tried again (ms). */
const HELD_ELSEWHERE_MS = 3_000;

/** Counters of the deliveries in the store, shared by instances (status and metrics read them). */
export const COUNTS_KEY = 'alerts:counts';
const COUNTS_TTL_S = 10 * 366 * 86_400;

export function countEvent(name: 'fired' | 'delivered' | 'failed', n = 1): Promise<void> {
  return safely(() => getStore().addCounts(COUNTS_KEY, { [name]: n }, COUNTS_TTL_S), 'count alert event').then(() => undefined);
}

/** A new event for `a`'s target, for its outbox: the caller writes it with what caused it, in the same store write. */
export function outboxEvent(a: Alert, type: EventType, data: Record<string, unknown>, challenge?: string, now = Date.now()): OutboxEvent {
  return {
    id: newId('msg'),
    type,
    // A webhook gets the Standard Webhooks event; a browser the notification it shows (lib/alerts/push.ts).
    body: JSON.stringify(a.target.type === 'push' ? notificationOf(a, data) : { type, timestamp: new Date(now).toISOString(), data }),
    ...(challenge === undefined ? {} : { challenge }),
    attempt: 0,
    queued_at: now,
    last_at: null,
  };
}

/** When the event's next attempt is due (ms): its first at once, each retry ALERT_RETRY_SCHEDULE_S's delay after the attempt before. */
export function dueAt(e: OutboxEvent, schedule = retryScheduleS()): number {
  if (e.attempt === 0 || e.last_at === null) return e.queued_at;
  return e.last_at + (schedule[e.attempt - 1] ?? 0) * 1000;
}

/** The Standard Webhooks signature of one attempt: `v1,` + base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret's bytes. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

interface Pump {
  /** Events being attempted here, by id. */
  running: Set<string>;
  perTarget: Map<string, number>;
  perHost: Map<string, number>;
  /** Attempts left alone until a time (ms), by event id and attempt: another instance holds their claim, or the store failed. */
  resting: Map<string, number>;
  scanning: boolean;
  again: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Who waits for the pump to have nothing under way and nothing due. */
  idle: (() => void)[];
}

const SLOT = Symbol.for('goldapi.alerts.pump');
const slot = globalThis as { [SLOT]?: Pump };

function pump(): Pump {
  return (slot[SLOT] ??= {
    running: new Set(),
    perTarget: new Map(),
    perHost: new Map(),
    resting: new Map(),
    scanning: false,
    again: false,
    timer: undefined,
    idle: [],
  });
}

/**
 * Starts the due deliveries (as many as the slots allow); the promise settles once nothing is under way and nothing
 * that can start is due (a retry due later waits on an unref'd timer, and on a platform that freezes instances for the
 * next reading, the cron's, to kick again).
 */
export function kick(): Promise<void> {
  const p = pump();
  const idle = new Promise<void>((r) => p.idle.push(r));
  void scan(p);
  afterAnswer(idle);
  return idle;
}

/** How many attempts this process has under way. */
export function deliveriesUnderWay(): number {
  return pump().running.size;
}

async function scan(p: Pump): Promise<void> {
  if (p.scanning) {
    p.again = true;
    return;
  }
  p.scanning = true;
  try {
    do {
      p.again = false;
      await startDue(p);
    } while (p.again);
  } catch (err) {
    console.warn(`[alerts] delivery run failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    p.scanning = false;
    if (p.running.size === 0) for (const done of p.idle.splice(0)) done();
  }
}

const restKey = (e: OutboxEvent) => `${e.id}:${e.attempt}`;
const bump = (m: Map<string, number>, k: string, by: number) => {
  const n = (m.get(k) ?? 0) + by;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

/** Starts what is due, oldest first, within the slots; the next due time waits on a timer. */
async function startDue(p: Pump): Promise<void> {
  const idx = await alertIndex();
  const now = Date.now();
  let next = idx ? Infinity : now + STORE_PAUSE_MS;
  const due: { alert: Alert; event: OutboxEvent; at: number }[] = [];
  if (idx) {
    const schedule = retryScheduleS();
    for (const alert of idx.outbox.values()) {
      for (const event of outboxOf(alert)) {
        if (p.running.has(event.id)) continue;
        const at = Math.max(dueAt(event, schedule), p.resting.get(restKey(event)) ?? 0);
        if (at <= now) due.push({ alert, event, at });
        else next = Math.min(next, at);
      }
    }
  }
  for (const [key, until] of p.resting) if (until <= now) p.resting.delete(key);
  due.sort((x, y) => x.at - y.at);
  for (const { alert, event } of due) {
    if (p.running.size >= DELIVERIES_AT_ONCE) break;
    const target = targetUrl(alert.target);
    // The host counts for a webhook; a push endpoint's host is one of the four push services (none is held back).
    const host = alert.target.type === 'webhook' ? hostOf(target) : '';
    if (p.perTarget.has(target) || (host && (p.perHost.get(host) ?? 0) >= DELIVERIES_PER_HOST)) continue;
    p.running.add(event.id);
    bump(p.perTarget, target, 1);
    if (host) bump(p.perHost, host, 1);
    void deliver(p, alert.id, event)
      .catch((err) => console.warn(`[alerts] delivery of ${event.id} failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        p.running.delete(event.id);
        bump(p.perTarget, target, -1);
        if (host) bump(p.perHost, host, -1);
        void scan(p);
      });
  }
  clearTimeout(p.timer);
  if (next !== Infinity) {
    p.timer = setTimeout(() => void scan(p), Math.min(Math.max(0, next - Date.now()), 2 ** 31 - 1));
    p.timer.unref();
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}

interface Answer {
  status: number | null;
  text: string;
  error?: string;
  refused?: boolean;
}

/** One attempt of `queued` (as the index held it), unless another run holds it or did it already. */
async function deliver(p: Pump, id: string, queued: OutboxEvent): Promise<void> {
  const store = getStore();
  const claimS = Math.ceil(deliveryTimeoutMs() / 1000) + CLAIM_MARGIN_S;
  const claimed = await safely(() => store.claim(`alerts:send:${queued.id}:${queued.attempt}`, claimS), 'claim alert delivery');
  if (!claimed) {
    p.resting.set(restKey(queued), Date.now() + (claimed === null ? STORE_PAUSE_MS : HELD_ELSEWHERE_MS));
    return;
  }
  let alert: Alert | null;
  try {
    alert = await loadAlert(id);
  } catch {
    p.resting.set(restKey(queued), Date.now() + STORE_PAUSE_MS);
    return;
  }
  // The record as it is now decides: gone, or this attempt made elsewhere meanwhile.
  const event = alert && outboxOf(alert).find((e) => e.id === queued.id && e.attempt === queued.attempt);
  if (!alert || !event) return;
  if (alert.state === 'disabled') {
    await updateAlert(id, (a) => void (a.outbox = outboxOf(a).filter((e) => e.id !== event.id)));
    return;
  }
  const answer = await attempt(alert, event);
  const now = Date.now();
  const schedule = retryScheduleS();
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const proved = ok && (event.type !== 'alert.verification' || (event.challenge !== undefined && answer.text.includes(event.challenge)));
  const retryable = !answer.refused && (answer.status === null || answer.status === 429 || answer.status >= 500);
  const retry = !proved && retryable && event.attempt < schedule.length;
  const gone = answer.status === 410;
  // A push service that no longer knows the subscription: the browser unsubscribed, so every alert it holds goes.
  if (alert.target.type === 'push' && (answer.status === 404 || answer.status === 410)) {
    await removeSubscription(alert.target.endpoint, alert.id);
    if (event.type === 'alert.triggered') await countEvent('failed');
    return;
  }
  const record: DeliveryRecord = {
    at: new Date(now).toISOString(),
    type: event.type,
    webhook_id: event.id,
    attempt: event.attempt + 1,
    http_status: answer.status,
    outcome: proved ? 'delivered' : retry && !gone ? 'retrying' : 'failed',
    ...(answer.error ? { error: answer.error } : ok && !proved ? { error: 'the answer does not hold the challenge' } : {}),
  };
  // Written only onto the alert as it is now (a DELETE while the attempt ran leaves it deleted), in one write: the
  // outcome, the event out of the outbox or its next attempt, and what the outcome does to the alert.
  const kept = await updateAlert(alert.id, (a) => {
    const outbox = outboxOf(a);
    const i = outbox.findIndex((e) => e.id === event.id && e.attempt === event.attempt);
    if (i < 0) return false;
    noteDelivery(a, record);
    if (retry && !gone) outbox[i] = { ...outbox[i], attempt: event.attempt + 1, last_at: now };
    else outbox.splice(i, 1);
    if (gone) {
      a.state = 'disabled';
      a.disabled_reason = 'the target answered 410 Gone';
      a.retrying = false;
      return;
    }
    if (event.type === 'alert.verification') {
      if (proved && a.state === 'pending') {
        a.state = 'active';
        a.armed = true;
        a.armed_at = now;
      }
      return;
    }
    if (proved) {
      a.delivered_count += 1;
      a.consecutive_failures = 0;
    } else if (!retry) {
      a.consecutive_failures += 1;
      if (a.consecutive_failures >= FAILURES_TO_DISABLE) {
        a.state = 'disabled';
        a.disabled_reason = `${FAILURES_TO_DISABLE} events in a row could not be delivered`;
      }
    }
    a.retrying = outbox.some((e) => e.type === 'alert.triggered' && e.attempt > 0);
  });
  if (kept && event.type === 'alert.triggered') {
    if (proved) await countEvent('delivered');
    else if (!retry || gone) await countEvent('failed');
  }
}

/** Removes every alert of a push subscription (the same endpoint), and with them every event they still held. */
async function removeSubscription(endpoint: string, id: string): Promise<void> {
  const idx = await alertIndex();
  for (const other of new Set([id, ...(idx ? alertsOnTarget(idx, endpoint) : [])])) {
    await safely(() => removeAlert(other), 'remove an alert of an ended push subscription');
  }
}

/** A delivery v1.10 queued in its own collection. */
interface LegacyJob {
  id: string;
  alert_id: string;
  type: EventType;
  body: string;
  challenge?: string;
  attempt: number;
  due: number;
}

/**
 * Moves the deliveries v1.10 left queued in their own collection into their alerts' outboxes, keeping each one's
 * webhook-id, attempts and due time (one instance moves each: a claim), then starts them.
 */
export async function adoptLegacyJobs(): Promise<void> {
  const store = getStore();
  const got = await safely(() => store.docs<LegacyJob>(LEGACY_JOBS), 'read v1.10 alert deliveries');
  if (!got?.docs.length) return;
  const schedule = retryScheduleS();
  for (const job of got.docs) {
    if (!(await safely(() => store.claim(`alerts:adopt:${job.id}`, 86_400), 'claim a v1.10 alert delivery'))) continue;
    try {
      await updateAlert(job.alert_id, (a) => {
        if (outboxOf(a).some((e) => e.id === job.id)) return false;
        const delay = job.attempt > 0 ? (schedule[job.attempt - 1] ?? 0) * 1000 : 0;
        outboxOf(a).push({
          id: job.id,
          type: job.type,
          body: job.body,
          ...(job.challenge === undefined ? {} : { challenge: job.challenge }),
          attempt: job.attempt,
          queued_at: job.due,
          last_at: job.attempt > 0 ? job.due - delay : null,
        });
      });
      await store.deleteDoc(LEGACY_JOBS, job.id);
    } catch (err) {
      // Left for the next start (its claim expires in a day).
      console.warn(`[alerts] moving the v1.10 delivery ${job.id} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** One attempt: the target checked again, connected only to checked addresses, no redirect followed. */
async function attempt(alert: Alert, job: OutboxEvent): Promise<Answer> {
  let target: CheckedTarget;
  try {
    target = alert.target.type === 'push' ? parseTarget(alert.target.endpoint, 'push.endpoint') : parseTarget(alert.target.url);
  } catch (err) {
    return { status: null, text: '', error: (err as Error).message, refused: true };
  }
  if (alert.target.type === 'push') {
    let request: Awaited<ReturnType<typeof pushRequest>>;
    try {
      request = await pushRequest(alert as Alert & { target: typeof alert.target }, job.body);
    } catch (err) {
      // The VAPID key could not be read or made (the store): nothing was sent, so it is tried again.
      return { status: null, text: '', error: `the push request could not be made: ${(err as Error).message}` };
    }
    return post(target, { ...request.headers, 'user-agent': 'gold-price-alerts/1' }, request.body, deliveryTimeoutMs());
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'gold-price-alerts/1 (+Standard Webhooks)',
    'webhook-id': job.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(alert.secret, job.id, timestamp, job.body),
  };
  return post(target, headers, job.body, deliveryTimeoutMs());
}

/** Longest answer body read (for the challenge); the rest is ignored. */
const MAX_ANSWER = 64 * 1024;

function post(t: CheckedTarget, headers: Record<string, string>, body: string | Buffer, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(a);
    };
    const mod = t.url.protocol === 'https:' ? https : http;
    const req = mod.request(t.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(t),
      agent: false,
    });
    const deadline = setTimeout(() => {
      req.destroy();
      done({ status: null, text: '', error: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        if (!peerPermitted(t, socket.remoteAddress)) {
          req.destroy();
          done({ status: null, text: '', error: `connected to an address that is not public (${socket.remoteAddress})`, refused: true });
        }
      });
    });
    req.on('error', (err) => {
      // Refused by the checks: failed at once. A name that does not resolve now: a network error, tried again.
      const refused = err.name === 'RefusedTarget';
      const known = refused || err.name === 'Unresolved';
      done({
        status: null,
        text: '',
        error: known ? err.message : `network error: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
        refused,
      });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_ANSWER) chunks.push(c);
        size += c.length;
      });
      const finish = () => done({ status: res.statusCode ?? null, text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER) });
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.end(body);
  });
}
