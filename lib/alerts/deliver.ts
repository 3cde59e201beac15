import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { getStore, safely } from '../store';
import { afterAnswer } from '../store/after-answer';
import { deliveryTimeoutMs, retryScheduleS } from './config';
import { FAILURES_TO_DISABLE, JOBS, type Alert, type DeliveryRecord, type EventType } from './model';
import { pushRequest, notificationOf } from './push';
import { newId, noteDelivery, removeAlert, updateAlert, loadAlert } from './records';
import { guardedLookup, parseTarget, peerPermitted, RefusedTarget, type CheckedTarget } from './targets';

// Webhook deliveries per Standard Webhooks (decisions §28). Each event is a job in the store (collection
// JOBS), so a retry due in five hours survives restarts and serverless instances; any instance runs a due
// job once (a claim per job and attempt). A job's `webhook-id` stays the same across its retries; each
// attempt is signed again with its own `webhook-timestamp`. Outcomes: 2xx delivered; a timeout, a network
// error, 429 or 5xx retried after ALERT_RETRY_SCHEDULE_S; 410 disables the alert; anything else (another
// 4xx, a redirect, which is never followed, a refused address) fails the event at once. Three events in a
// row that fail disable the alert. The verification event activates the alert when the answer is 2xx with
// the challenge in its body.

export interface Job {
  /** The `webhook-id`, the same on every attempt. */
  id: string;
  alert_id: string;
  type: EventType;
  /** The JSON body, fixed at the event. */
  body: string;
  /** For a verification: the challenge the answer must hold. */
  challenge?: string;
  /** Attempts made so far. */
  attempt: number;
  /** When the next attempt is due, ms. */
  due: number;
}

/** Counters of the deliveries in the store, shared by instances (status and metrics read them). */
export const COUNTS_KEY = 'alerts:counts';
const COUNTS_TTL_S = 10 * 366 * 86_400;

export function countEvent(name: 'fired' | 'delivered' | 'failed', n = 1): Promise<void> {
  return safely(() => getStore().addCounts(COUNTS_KEY, { [name]: n }, COUNTS_TTL_S), 'count alert event').then(() => undefined);
}

/** Queues an event for `a`'s target and starts its delivery. */
export async function enqueue(a: Alert, type: EventType, data: Record<string, unknown>, challenge?: string): Promise<Job> {
  const job = await queueEvent(a, type, data, challenge);
  kick();
  return job;
}

/**
 * Queues an event for `a`'s target; the caller starts the deliveries (kick) once it has queued them all, as a reading
 * does after its crossings (never awaiting them), so the delivery run does not read a queue still growing under it.
 */
export async function queueEvent(a: Alert, type: EventType, data: Record<string, unknown>, challenge?: string): Promise<Job> {
  const job: Job = {
    id: newId('msg'),
    alert_id: a.id,
    type,
    // A webhook gets the Standard Webhooks event; a browser the notification it shows (lib/alerts/push.ts).
    body: JSON.stringify(a.target.type === 'push' ? notificationOf(a, data) : { type, timestamp: new Date().toISOString(), data }),
    challenge,
    attempt: 0,
    due: Date.now(),
  };
  await getStore().putDoc(JOBS, job.id, job);
  return job;
}

/** The Standard Webhooks signature of one attempt: `v1,` + base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret's bytes. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

// One pump per process copy: due jobs run, then a timer waits for the next one (unref'd: it never keeps a
// process alive). On a platform that freezes instances the next reading (the cron) pumps again.
let running: Promise<void> | null = null;
let again = false;
let timer: NodeJS.Timeout | undefined;

/** Runs the due deliveries now (or once the run in progress ends); the promise settles when they have. */
export function kick(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await pumpOnce().catch((err) => console.warn(`[alerts] delivery run failed: ${err instanceof Error ? err.message : String(err)}`));
    } while (again);
  })().finally(() => {
    running = null;
  });
  afterAnswer(running);
  return running;
}

async function pumpOnce(): Promise<void> {
  const got = await safely(() => getStore().docs<Job>(JOBS), 'read alert jobs');
  if (!got) return;
  const now = Date.now();
  const due = got.docs.filter((j) => j.due <= now);
  const ran = await Promise.all(due.map((j) => runJob(j)));
  // What ran changed the queue (a retry is due later, a job went): read it again before waiting.
  if (ran.some(Boolean)) {
    again = true;
    return;
  }
  const next = got.docs.filter((j) => j.due > now).reduce((m, j) => Math.min(m, j.due), Infinity);
  clearTimeout(timer);
  if (next !== Infinity) {
    timer = setTimeout(() => void kick(), Math.min(Math.max(0, next - Date.now()), 2 ** 31 - 1));
    timer.unref();
  }
}

interface Answer {
  status: number | null;
  text: string;
  error?: string;
  refused?: boolean;
}

/** Runs one attempt of `job` unless another run holds it; true when this one ran it. */
async function runJob(job: Job): Promise<boolean> {
  const store = getStore();
  const claimed = await safely(
    () => store.claim(`alerts:job:${job.id}:${job.attempt}`, Math.ceil(deliveryTimeoutMs() / 1000) + 60),
    'claim alert job',
  );
  if (!claimed) return false;
  const alert = await loadAlert(job.alert_id);
  if (!alert || alert.state === 'disabled') {
    await store.deleteDoc(JOBS, job.id);
    return true;
  }
  const answer = await attempt(alert, job);
  const at = new Date().toISOString();
  const schedule = retryScheduleS();
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const proved = ok && (job.type !== 'alert.verification' || (job.challenge !== undefined && answer.text.includes(job.challenge)));
  const retryable = !answer.refused && (answer.status === null || answer.status === 429 || answer.status >= 500);
  const retry = !proved && retryable && job.attempt < schedule.length;
  const gone = answer.status === 410;
  // A push service that no longer knows the subscription: the browser unsubscribed, so the alert goes with it.
  if (alert.target.type === 'push' && (answer.status === 404 || answer.status === 410)) {
    await removeAlert(alert.id);
    await store.deleteDoc(JOBS, job.id);
    await countEvent('failed');
    return true;
  }
  const record: DeliveryRecord = {
    at,
    type: job.type,
    webhook_id: job.id,
    attempt: job.attempt + 1,
    http_status: answer.status,
    outcome: proved ? 'delivered' : retry && !gone ? 'retrying' : 'failed',
    ...(answer.error ? { error: answer.error } : ok && !proved ? { error: 'the answer does not hold the challenge' } : {}),
  };
  // Written only onto the alert as it is now (a DELETE while the attempt ran leaves it deleted).
  const kept = await updateAlert(alert.id, (a) => {
    noteDelivery(a, record);
    if (gone) {
      a.state = 'disabled';
      a.disabled_reason = 'the target answered 410 Gone';
      a.retrying = false;
      return;
    }
    if (job.type === 'alert.verification') {
      if (proved && a.state === 'pending') {
        a.state = 'active';
        a.armed = true;
      }
      return;
    }
    if (proved) {
      a.delivered_count += 1;
      a.consecutive_failures = 0;
      a.retrying = false;
    } else if (retry) {
      a.retrying = true;
    } else {
      a.retrying = false;
      a.consecutive_failures += 1;
      if (a.consecutive_failures >= FAILURES_TO_DISABLE) {
        a.state = 'disabled';
        a.disabled_reason = `${FAILURES_TO_DISABLE} events in a row could not be delivered`;
      }
    }
  });
  if (job.type === 'alert.triggered') {
    if (proved) await countEvent('delivered');
    else if (!retry || gone) await countEvent('failed');
  }
  if (retry && !gone && kept) {
    const next: Job = { ...job, attempt: job.attempt + 1, due: Date.now() + schedule[job.attempt] * 1000 };
    await store.putDoc(JOBS, job.id, next);
  } else await store.deleteDoc(JOBS, job.id);
  return true;
}

/** One attempt: the target checked again, connected only to checked addresses, no redirect followed. */
async function attempt(alert: Alert, job: Job): Promise<Answer> {
  let target: CheckedTarget;
  try {
    target = alert.target.type === 'push' ? parseTarget(alert.target.endpoint, 'push.endpoint') : parseTarget(alert.target.url);
  } catch (err) {
    return { status: null, text: '', error: (err as Error).message, refused: true };
  }
  if (alert.target.type === 'push') {
    const { headers, body } = await pushRequest(alert as Alert & { target: typeof alert.target }, job.body);
    return post(target, { ...headers, 'user-agent': 'gold-price-alerts/1' }, body, deliveryTimeoutMs());
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
      const refused = err instanceof RefusedTarget || err.name === 'RefusedTarget';
      done({
        status: null,
        text: '',
        error: refused ? err.message : `network error: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
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
