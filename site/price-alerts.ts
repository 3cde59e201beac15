import { UNITS, type Unit } from '../lib/reference/units';
import { unitWord } from '../widgets/format';
import type { PageStrings, Strings } from '../widgets/i18n';

// "Notify me" on the price pages (decisions §28, Web Push): what the page's alerts script (site/scripts/price-alerts.ts)
// and the service worker (site/scripts/sw.ts) compute, without the browser: the alert the page asks for, the alerts
// this browser made as localStorage keeps them, the words for each answer, and the notification a push shows.
// No imports but types: the alerts script is a chunk of its own, loaded when wanted, and shares no code with the
// page's first script.

/** Where the browser keeps the alerts it made (their manage URLs carry the token that shows and cancels them). */
export const SAVED_KEY = 'price-alerts';

export type Direction = 'above' | 'below';

/** An alert this browser made: enough to show it and to ask the service about it. */
export interface SavedAlert {
  id: string;
  manage_url: string;
  metal: string;
  currency: string;
  unit: string;
  type: Direction;
  value: number;
}

/** A browser's PushSubscription as `toJSON()` gives it. */
export interface SubscriptionJson {
  endpoint?: string;
  expirationTime?: number | null;
  keys?: Record<string, string>;
}

/** A level as typed: a positive finite number, else null. */
export function levelOf(text: string): number | null {
  const n = Number(text.trim().replace(/\s/g, '').replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : null;
}

/** The body of `POST /api/v1/alerts` for the page's metal, currency and unit and this browser's subscription. */
export function alertRequest(
  page: { metal: string; currency: string; unit: string },
  type: Direction,
  value: number,
  sub: SubscriptionJson,
): Record<string, unknown> {
  return {
    metal: page.metal,
    currency: page.currency,
    unit: page.unit,
    [type]: value,
    push: { endpoint: sub.endpoint, keys: { p256dh: sub.keys?.p256dh, auth: sub.keys?.auth } },
  };
}

/** The alerts kept in localStorage; anything else there (another version, a hand edit) reads as none. */
export function readSaved(raw: string | null): SavedAlert[] {
  let list: unknown;
  try {
    list = JSON.parse(raw ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.filter(
    (a): a is SavedAlert =>
      !!a &&
      typeof a.id === 'string' &&
      typeof a.manage_url === 'string' &&
      typeof a.metal === 'string' &&
      typeof a.currency === 'string' &&
      typeof a.unit === 'string' &&
      (a.type === 'above' || a.type === 'below') &&
      typeof a.value === 'number',
  );
}

/** A VAPID public key (base64url) as `pushManager.subscribe` takes it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** widgets/format.ts `fill`, repeated: importing it would put a chunk shared with the page's first script before it. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** "Gold above €140.00 per gram" in the page's language. */
export function alertLabel(
  a: Pick<SavedAlert, 'metal' | 'currency' | 'unit' | 'type' | 'value'>,
  t: Strings,
  p: PageStrings,
  locale: string,
): string {
  let price: string;
  try {
    price = new Intl.NumberFormat(locale, { style: 'currency', currency: a.currency, maximumFractionDigits: 4 }).format(a.value);
  } catch {
    price = `${a.value} ${a.currency}`;
  }
  const per = (UNITS as readonly string[]).includes(a.unit) ? unitWord(t, a.unit as Unit, 'per') : a.unit;
  const metal = (t as Record<string, string>)[a.metal] ?? a.metal;
  return fill(a.type === 'above' ? p.notifyAboveLabel : p.notifyBelowLabel, { metal, price: `${price} ${per}` });
}

/** What the page says when the service refuses an alert: its status in words, with the service's own reason for a 400. */
export function refusal(status: number, body: { error?: unknown } | null, p: PageStrings): string {
  const reason = typeof body?.error === 'string' ? body.error : '';
  if (status === 429) return p.notifyTooMany;
  if (status === 400) return fill(p.notifyInvalid, { reason });
  return fill(p.notifyFailed, { status });
}

/** The words for an alert's status as the manage URL answers it. */
export function statusWord(status: string, p: PageStrings): string {
  const words: Record<string, string> = {
    pending: p.notifyActive,
    active: p.notifyActive,
    fired: p.notifyFired,
    failing: p.notifyFailing,
    disabled: p.notifyDisabled,
    expired: p.notifyExpired,
  };
  return words[status] ?? status;
}

/** What a push delivers (lib/alerts/push.ts `notificationOf`): a declarative push message, with v1.10's members beside it. */
export interface PushPayload {
  web_push?: number;
  notification?: { title?: unknown; body?: unknown; navigate?: unknown; tag?: unknown; lang?: unknown; dir?: unknown };
  title: string;
  body: string;
  url: string;
  tag?: string;
  data?: unknown;
}

/**
 * The notification a push shows: the declarative `notification`'s title, body, tag and the page its `navigate` opens
 * (else v1.10's `title`, `body`, `tag` and `url`), the page kept only when on this service's own origin (else the
 * origin's home). A browser that shows declarative pushes itself (Safari 18.4+) shows the same without this worker.
 */
export function notificationOf(payload: unknown, origin: string): { title: string; options: NotificationOptions & { data: { url: string } } } {
  const p = (payload && typeof payload === 'object' ? payload : {}) as Partial<Record<keyof PushPayload, unknown>>;
  const n = (p.notification && typeof p.notification === 'object' ? p.notification : {}) as NonNullable<PushPayload['notification']>;
  const text = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '');
  const title = text(n.title, p.title) ?? 'Price alert';
  const body = text(n.body, p.body) ?? '';
  const tag = text(n.tag, p.tag);
  const lang = text(n.lang);
  return {
    title,
    options: {
      body,
      ...(tag ? { tag } : {}),
      ...(lang ? { lang } : {}),
      ...(n.dir === 'ltr' || n.dir === 'rtl' ? { dir: n.dir } : {}),
      icon: '/icon.svg',
      data: { url: sameOrigin(text(n.navigate, p.url), origin) },
    },
  };
}

/** `url` when it is on `origin`, else `origin`'s home. */
export function sameOrigin(url: unknown, origin: string): string {
  if (typeof url !== 'string' || !url) return `${origin}/`;
  try {
    const u = new URL(url, origin);
    if (u.origin === origin) return u.href;
  } catch {
    // not a URL: the home page
  }
  return `${origin}/`;
}
