import type { PriceEvent } from '../../lib/schemas/stream';

// Live prices pushed by the service (GET /api/v1/stream, Server-Sent Events), shared by the widgets and the
// landing page. Whatever goes wrong, the reader sees no error: the page falls back to polling, as it did
// before the stream existed, and its freshness line keeps saying how old the price is.

/** Connections in a row that fail without an event between them, after which the stream counts as failing. */
const GIVE_UP_AFTER = 3;

export interface Follower {
  /** (Re)opens the stream, for a new URL (another currency) or after close(). */
  open(): void;
  /** Stops following until open() is called again. */
  close(): void;
}

/**
 * Follows the price stream at `url()`, calling `onPrice` with each event; null when this browser cannot
 * (no EventSource). `fallback` runs once, and the stream is dropped for good, when the server refuses it
 * (turned off, full, an error answer) or it keeps failing. A hidden page holds no stream; shown again, it
 * reconnects and the first event is the current state. The stream's own end (every few minutes) is a
 * plain reconnect, done by EventSource itself.
 */
export function follow(url: () => string, onPrice: (e: PriceEvent) => void, fallback: () => void): Follower | null {
  if (typeof EventSource === 'undefined') return null;
  let source: EventSource | null = null;
  let wanted = false;
  let failures = 0;
  let failed = false;

  const drop = () => {
    source?.close();
    source = null;
  };
  const connect = () => {
    drop();
    if (!wanted || failed || document.visibilityState === 'hidden') return;
    const es = (source = new EventSource(url()));
    es.addEventListener('price', (m) => {
      failures = 0;
      try {
        onPrice(JSON.parse((m as MessageEvent<string>).data) as PriceEvent);
      } catch {
        // Not an event of ours: keep what is shown.
      }
    });
    es.onerror = () => {
      // CLOSED: refused (a status other than 200, or not an event stream); else the browser is retrying by itself.
      if (es.readyState !== EventSource.CLOSED && ++failures < GIVE_UP_AFTER) return;
      failed = true;
      drop();
      fallback();
    };
  };
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? drop() : source || connect()));
  return {
    open() {
      wanted = true;
      connect();
    },
    close() {
      wanted = false;
      drop();
    },
  };
}

/** Whether the page asked to poll instead (`live=0`, as a widget's own query or the landing page's). */
export function pollOnly(): boolean {
  return ['0', 'false', 'no', 'off'].includes((new URLSearchParams(location.search).get('live') ?? '').toLowerCase());
}
