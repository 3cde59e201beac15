import type { ErrorBody } from '../../lib/schemas/common';

// Helpers every widget script shares: its configuration, a polite poller, and the height report
// that lets embed.js size the iframe to its content.

export function config<T>(): T {
  return JSON.parse(document.getElementById('gw-config')?.textContent || '{}') as T;
}

export function field(name: string): HTMLElement | null {
  return document.querySelector(`[data-f="${name}"]`);
}

export function setText(name: string, text: string, hidden = false): void {
  const el = field(name);
  if (!el) return;
  if (el.textContent !== text) el.textContent = text;
  el.hidden = hidden;
}

/** An API answer: the endpoint's body, or the error body of a 4xx or 503; both carry data_state. */
export type Answer<B> = B | ErrorBody;

/**
 * Fetches `url()` at once (a widget page may be a cached copy; `atOnce: false` for a page rendered
 * per request), every `everyS` seconds while the page is visible, and when it is shown again; never overlaps.
 */
export function poll<B>(
  url: () => string,
  everyS: number,
  onAnswer: (status: number, body: Answer<B>) => void,
  { atOnce = true } = {},
): () => Promise<void> {
  let busy = false;
  const run = async () => {
    if (busy || document.visibilityState === 'hidden') return;
    busy = true;
    try {
      const res = await fetch(url(), { headers: { accept: 'application/json' } });
      onAnswer(res.status, (await res.json()) as Answer<B>);
    } catch {
      // Offline or blocked: keep what is shown; its freshness line keeps ageing honestly.
    } finally {
      busy = false;
    }
  };
  if (atOnce) void run();
  setInterval(run, everyS * 1000);
  document.addEventListener('visibilitychange', run);
  return run;
}

/** Tells the embedding page how tall the widget is, whenever that changes, and what it is called. */
export function reportHeight(): void {
  if (window.parent === window) return;
  const id = new URLSearchParams(location.search).get('wid') || '';
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // The title is the widget's name in its own language, for the iframe's accessible name.
    window.parent.postMessage({ goldWidget: { id, height, title: document.title } }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
