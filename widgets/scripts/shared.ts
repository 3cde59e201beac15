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
 * per request), when the page is shown again (or restored from the back/forward cache), and `everyS`
 * seconds after each ask while it is visible (a function: asked at each turn, so the pace follows what
 * is shown). Returns the ask, for a change of what to fetch: polls never overlap, and an ask made
 * during one runs when it ends.
 */
export function poll<B>(
  url: () => string,
  everyS: number | (() => number),
  onAnswer: (status: number, body: Answer<B>) => void,
  { atOnce = true } = {},
): () => Promise<void> {
  let busy = false;
  let again = false;
  let next: ReturnType<typeof setTimeout> | undefined;
  const period = () => (typeof everyS === 'number' ? everyS : everyS()) * 1000;
  const run = async (): Promise<void> => {
    clearTimeout(next);
    next = setTimeout(run, period());
    if (document.visibilityState === 'hidden') return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(url(), { headers: { accept: 'application/json' } });
      onAnswer(res.status, (await res.json()) as Answer<B>);
    } catch {
      // Offline or blocked: keep what is shown; its freshness line keeps ageing honestly.
    } finally {
      busy = false;
    }
    if (again) {
      again = false;
      await run();
    }
  };
  if (atOnce) void run();
  else next = setTimeout(run, period());
  document.addEventListener('visibilitychange', run);
  // Restored from the back/forward cache (decisions §29): what is shown is as old as the time away.
  addEventListener('pageshow', (e) => e.persisted && void run());
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
