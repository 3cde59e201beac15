import { notificationOf, sameOrigin } from '../price-alerts';

// The site's service worker, served at /sw.js (scope /; built by scripts/build-widgets.mjs): it shows the price
// alerts' Web Push notifications (decisions §28; the payload is lib/alerts/push.ts `notificationOf`) and opens, or
// focuses, the alert's price page on a click. It caches nothing: the pages stay as the network serves them.

// The worker's own globals, as far as used here (the project's types are the window's, `dom`).
interface WorkerClient {
  url: string;
  focused?: boolean;
  focus?: () => Promise<unknown>;
  navigate?: (url: string) => Promise<unknown>;
}
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface Worker {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WorkerClient[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'push', fn: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: NotificationEvent) => void): void;
}
const sw = self as unknown as Worker;
const origin = sw.location.origin;

sw.addEventListener('install', (e) => e.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));

sw.addEventListener('push', (e) => {
  let payload: unknown = null;
  try {
    payload = e.data?.json() ?? null;
  } catch {
    payload = { body: e.data?.text() ?? '' };
  }
  const { title, options } = notificationOf(payload, origin);
  e.waitUntil(sw.registration.showNotification(title, options));
});

sw.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = sameOrigin((e.notification.data as { url?: unknown } | null)?.url, origin);
  e.waitUntil(
    (async () => {
      const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // The page itself when a tab shows it; else a new tab.
      const same = open.find((c) => c.url.split('#')[0] === url);
      if (same?.focus) return same.focus();
      return sw.clients.openWindow(url);
    })(),
  );
});
