import webpush from 'web-push';
import { getStore } from '../store';
import type { Unit } from '../reference/units';
import { metalById } from '../reference/metals';
import { listedByOperator, parseTarget, checkedAddresses, RefusedTarget } from './targets';
import type { Alert, PushTarget } from './model';

// Web Push deliveries (decisions §28): a browser's PushSubscription on a known push service, a notification
// encrypted per RFC 8291 (aes128gcm) and signed with the deployment's VAPID key, with a TTL and a Topic per alert
// (a newer notification of the same alert replaces one still waiting). The request itself goes out as a webhook's
// does (lib/alerts/deliver.ts: the checked addresses only, no redirect, 10 s), so web-push only builds it.

/** The push services browsers subscribe with: Google (Chrome, Edge on Android), Mozilla, Apple, Microsoft. */
const PUSH_SERVICES = [/^fcm\.googleapis\.com$/, /(^|\.)push\.services\.mozilla\.com$/, /(^|\.)push\.apple\.com$/, /(^|\.)notify\.windows\.com$/];

/** How long a push service keeps a notification for a browser that is offline, seconds. */
export const PUSH_TTL_S = 3600;

const b64url = (s: string) => (/^[A-Za-z0-9_-]+={0,2}$/.test(s) ? Buffer.from(s, 'base64url') : null);

/** Checks a subscription: https on a known push service (or one ALERT_TARGETS_ALLOW lists), on public addresses, with keys of the right size. */
export async function checkPushTarget(t: PushTarget): Promise<void> {
  const target = parseTarget(t.endpoint, 'push.endpoint');
  if (!listedByOperator(target) && !PUSH_SERVICES.some((re) => re.test(target.host))) {
    throw new RefusedTarget('push.endpoint must be on a known push service (Google, Mozilla, Apple, Microsoft)');
  }
  const key = b64url(t.keys.p256dh);
  if (!key || key.length !== 65 || key[0] !== 4) throw new RefusedTarget('push.keys.p256dh must be a P-256 public key (65 bytes, base64url)');
  const auth = b64url(t.keys.auth);
  if (!auth || auth.length !== 16) throw new RefusedTarget('push.keys.auth must be 16 bytes, base64url');
  await checkedAddresses(target, 'push.endpoint', false);
}

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEY = 'alerts:vapid';

/** The deployment's VAPID key pair: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else one made once and kept in the store. */
export async function vapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const publicKey = process.env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = process.env.VAPID_PRIVATE_KEY?.trim();
  if (publicKey && privateKey) return { publicKey, privateKey };
  const store = getStore();
  const held = await store.get<VapidKeys>(VAPID_KEY);
  if (held) return held;
  // Two instances making one at once: the first written stays, and both use it.
  await store.setIfAbsent<VapidKeys>(VAPID_KEY, webpush.generateVAPIDKeys(), 100 * 366 * 86_400);
  const kept = await store.get<VapidKeys>(VAPID_KEY);
  if (!kept) throw new Error('the VAPID key pair could not be kept in the store');
  return kept;
}

/** VAPID_SUBJECT, else the public origin when it is https, else a mailto: the push services accept. */
function vapidSubject(origin: string): string {
  const set = process.env.VAPID_SUBJECT?.trim();
  if (set) return set;
  return origin.startsWith('https://') ? origin : 'mailto:alerts@localhost.localdomain';
}

const UNIT_SUFFIX: Record<Unit, string> = {
  oz: '/oz',
  gram: '/g',
  kg: '/kg',
  tola: '/tola',
  tael: '/tael',
  baht: '/baht',
  chi: '/chi',
  luong: '/luong',
  don: '/don',
  pavan: '/pavan',
  dwt: '/dwt',
  grain: '/grain',
};

function money(value: number, currency: string, unit: Unit): string {
  let text: string;
  try {
    text = new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value);
  } catch {
    text = `${value} ${currency}`;
  }
  return `${text}${UNIT_SUFFIX[unit]}`;
}

/** Declarative Web Push (Push API, "declarative push message"; WebKit since Safari 18.4): the member and value that mark one. */
export const DECLARATIVE_PUSH = { web_push: 8030 } as const;

/**
 * The notification a browser shows: "Gold above €140.00/g", the price and its time, and the page a click opens: the
 * alert's own price page, `/{metal}/{currency}/{unit}` (decisions §27). It is a declarative push message (`web_push:
 * 8030` and `notification` with `title`, `body` and `navigate`), so a browser that reads those (Safari 18.4+) shows it
 * without running the service worker; elsewhere the page's service worker (site/scripts/sw.ts) shows the same fields.
 * The members v1.10 sent (`title`, `body`, `url`, `tag`, `data`) stay beside them, for workers installed before.
 */
export function notificationOf(a: Alert, data: Record<string, unknown>): Record<string, unknown> {
  const metal = metalById(a.metal).name;
  const { type, value } = a.condition;
  const change = typeof data.change_pct === 'number' ? data.change_pct : null;
  const title =
    type === 'move_pct'
      ? `${metal} ${change !== null && change < 0 ? 'down' : 'up'} ${value}% since the previous close`
      : `${metal} ${type} ${money(value, a.currency, a.unit)}`;
  const at = new Date(String(data.crossed_at));
  const time = `${at.toISOString().slice(11, 16)} UTC, ${at.toISOString().slice(0, 10)}`;
  const body = `${money(Number(data.price), a.currency, a.unit)} at ${time}`;
  const url = `${a.origin}/${a.metal}/${a.currency.toLowerCase()}/${a.unit}`;
  return {
    ...DECLARATIVE_PUSH,
    // The words are English (as the title's money format is): the service does not know the reader's language.
    notification: { title, body, navigate: url, tag: a.id, lang: 'en', dir: 'ltr' },
    type: 'alert.triggered',
    title,
    body,
    url,
    tag: a.id,
    data,
  };
}

/** The request that delivers `payload` to the subscription: encrypted body and headers (TTL, Topic, VAPID). */
export async function pushRequest(a: Alert & { target: PushTarget }, payload: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const { publicKey, privateKey } = await vapidKeys();
  const details = webpush.generateRequestDetails({ endpoint: a.target.endpoint, keys: a.target.keys }, payload, {
    TTL: PUSH_TTL_S,
    // At most 32 characters of the URL-safe base64 alphabet: the alert's id is.
    topic: a.id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
    urgency: 'high',
    contentEncoding: 'aes128gcm',
    vapidDetails: { subject: vapidSubject(a.origin), publicKey, privateKey },
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(details.headers)) headers[k.toLowerCase()] = String(v);
  return { headers, body: details.body };
}
