import type { PageConfig } from '../price-page';
import {
  alertLabel,
  alertRequest,
  fill,
  keyBytes,
  levelOf,
  readSaved,
  refusal,
  SAVED_KEY,
  statusWord,
  type Direction,
  type SavedAlert,
} from '../price-alerts';

// "Notify me" on a price page (decisions §28): a chunk the page's script loads when the section comes near. It
// enables the server-rendered form: on submit it asks for notification permission, registers the service worker
// (/sw.js, site/scripts/sw.ts), subscribes with the deployment's VAPID key (GET /api/v1/alerts/push-key) and POSTs the
// alert; it lists the alerts this browser made (localStorage: id and manage URL) with their status, each with a
// Cancel (DELETE on its manage URL). Every outcome is said in the status line (aria-live).

export function mountAlerts(section: HTMLElement, config: PageConfig): void {
  const { t, p } = config.words;
  const form = section.querySelector<HTMLFormElement>('#notify-form')!;
  const level = section.querySelector<HTMLInputElement>('#nt-level')!;
  const dir = section.querySelector<HTMLSelectElement>('#nt-dir')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const msg = section.querySelector<HTMLElement>('#nt-msg')!;
  const yours = section.querySelector<HTMLElement>('#nt-yours')!;
  const list = section.querySelector<HTMLUListElement>('#nt-list')!;
  const say = (text: string) => void (msg.textContent = text);
  const label = (a: SavedAlert) => alertLabel(a, t, p, config.locale);

  const saved = (): SavedAlert[] => {
    try {
      return readSaved(localStorage.getItem(SAVED_KEY));
    } catch {
      return [];
    }
  };
  const keep = (all: SavedAlert[]) => {
    try {
      localStorage.setItem(SAVED_KEY, JSON.stringify(all));
    } catch {
      // Storage refused (private mode, full): the alert still works; this browser cannot list it.
    }
  };
  const forget = (id: string) => keep(saved().filter((a) => a.id !== id));

  /** The alerts this browser made, each with its status as the service tells it, and a Cancel. */
  function showList() {
    const all = saved();
    yours.hidden = all.length === 0;
    list.replaceChildren(
      ...all.map((a) => {
        const li = document.createElement('li');
        const name = document.createElement('span');
        name.id = `nt-a-${a.id}`;
        name.textContent = label(a);
        const status = document.createElement('span');
        status.className = 'muted';
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.textContent = p.notifyCancel;
        cancel.setAttribute('aria-describedby', name.id);
        cancel.addEventListener('click', () => void remove(a, li, cancel));
        li.append(name, ' ', status, ' ', cancel);
        void fetch(a.manage_url, { cache: 'no-store', headers: { accept: 'application/json' } })
          .then(async (res) => {
            // Gone: cancelled elsewhere, expired, or its subscription ended at the push service.
            if (res.status === 404) {
              forget(a.id);
              li.remove();
              yours.hidden = list.childElementCount === 0;
            } else if (res.ok) status.textContent = `(${statusWord(String((await res.json()).status), p)})`;
          })
          .catch(() => undefined);
        return li;
      }),
    );
  }

  async function remove(a: SavedAlert, li: HTMLElement, cancel: HTMLButtonElement) {
    cancel.disabled = true;
    try {
      const res = await fetch(a.manage_url, { method: 'DELETE' });
      if (res.status !== 204 && res.status !== 404) {
        cancel.disabled = false;
        return say(refusal(res.status, await res.json().catch(() => null), p));
      }
    } catch {
      cancel.disabled = false;
      return say(fill(p.notifyFailed, { status: '—' }));
    }
    forget(a.id);
    li.remove();
    yours.hidden = list.childElementCount === 0;
    say(fill(p.notifyCancelled, { alert: label(a) }));
  }

  /** This browser's push subscription with the deployment's key (a subscription with another key is replaced). */
  async function subscription(): Promise<PushSubscription> {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    const reg = await navigator.serviceWorker.ready;
    const keyRes = await fetch('/api/v1/alerts/push-key', { cache: 'no-store' });
    const body = await keyRes.json().catch(() => null);
    if (!keyRes.ok || typeof body?.public_key !== 'string') throw new Refused(refusal(keyRes.status, body, p));
    const key = keyBytes(body.public_key);
    const held = await reg.pushManager.getSubscription();
    if (held) {
      const heldKey = held.options.applicationServerKey;
      if (heldKey && sameBytes(new Uint8Array(heldKey), key)) return held;
      await held.unsubscribe();
    }
    try {
      return await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (err) {
      // NotAllowedError: the permission was taken back; anything else: no push service for this browser.
      throw new Refused(err instanceof DOMException && err.name === 'NotAllowedError' ? p.notifyDenied : p.notifyUnsupported);
    }
  }

  async function create(type: Direction, value: number) {
    // Asked first, while the click still counts as the reader's own gesture (some browsers ask only then).
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return say(p.notifyDenied);
    const sub = await subscription();
    const res = await fetch('/api/v1/alerts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(alertRequest(config, type, value, sub.toJSON())),
    });
    const body = await res.json().catch(() => null);
    if (res.status !== 201 || typeof body?.id !== 'string' || typeof body?.manage_url !== 'string') {
      return say(refusal(res.status, body, p));
    }
    const a: SavedAlert = {
      id: body.id,
      manage_url: body.manage_url,
      metal: config.metal,
      currency: config.currency,
      unit: config.unit,
      type,
      value,
    };
    keep([...saved().filter((s) => s.id !== a.id), a]);
    say(fill(p.notifyCreated, { alert: label(a) }));
    showList();
  }

  const supported = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  showList();
  if (!supported) return say(p.notifyUnsupported);
  if (Notification.permission === 'denied') say(p.notifyDenied);
  else say('');
  button.disabled = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = levelOf(level.value);
    if (value === null) {
      level.focus();
      return say(p.notifyBadLevel);
    }
    button.disabled = true;
    say(p.notifyWorking);
    create(dir.value === 'below' ? 'below' : 'above', value)
      .catch((err) => say(err instanceof Refused ? err.message : fill(p.notifyFailed, { status: '—' })))
      .finally(() => (button.disabled = false));
  });
}

/** A refusal to say as it is. */
class Refused extends Error {}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
