import type { PriceEvent } from '../../lib/schemas/stream';

// Live prices pushed by the service (GET /api/v1/stream, Server-Sent Events), shared by the widgets and the
// landing page. Whatever goes wrong, the reader sees no error: the page falls back to polling, as it did
// before the stream existed, and its freshness line keeps saying how old the price is.
//
// Widgets of one page share one stream per URL (decisions §25), so a page with several widgets never spends
// HTTP/1.1's six connections on streams: the frames of our origin on a page (and its other tabs) meet on a Web
// Lock named for the stream's URL. The one holding it leads: it holds the EventSource and relays each event
// over a BroadcastChannel of the same name to the others, which follow; when the leader goes away (its frame
// removed, its tab hidden or closed, its widget following another URL), the lock passes to the next, which
// opens the stream itself. A frame without either API, or where they refuse (an opaque origin: a widget in
// `<iframe sandbox="allow-scripts">`, decisions §29), opens its own stream at once, as before.
//
// A page restored from the back/forward cache (decisions §29) reconnects at once: leaving let go of the stream.
//
// A stream that cannot be seen counts as failing: the server sends an event at least every heartbeat
// (`STREAM_HEARTBEAT_S`, 15 s; the page says it in `<meta name="stream-heartbeat-s">`), so hearing nothing
// for two of them means a proxy holds the events back, and the page polls.

/** Connections in a row that fail without an event between them, after which the stream counts as failing. */
const GIVE_UP_AFTER = 3;
/** How long a failed stream's frame must still be there for the failure to count (ms). */
const SETTLE_MS = 250;
/** The stream's heartbeat (s) when the page does not say. */
const HEARTBEAT_S = 15;

/** What the leader tells the followers, and what a follower asks. */
type Message = { price: PriceEvent } | { beat: true } | { failed: true } | { hello: true };

export interface Follower {
  /** (Re)opens the stream, for a new URL (another currency) or after close(). */
  open(): void;
  /** Stops following until open() is called again. */
  close(): void;
}

/** The page's heartbeat period in seconds (its `stream-heartbeat-s` meta), else the stream's default. */
function heartbeatS(): number {
  const said = Number(document.querySelector<HTMLMetaElement>('meta[name="stream-heartbeat-s"]')?.content);
  return said > 0 ? said : HEARTBEAT_S;
}

/**
 * One name per stream: the query sorted, the currency in capitals, the defaults (USD, troy ounce) left out, so
 * the price widget's `?currency=USD&unit=oz`, the converter's `?currency=USD` and the landing's bare URL are the
 * one stream they are.
 */
export function streamUrl(url: string): string {
  const u = new URL(url, location.href);
  const q = new URLSearchParams();
  const currency = (u.searchParams.get('currency') ?? 'USD').toUpperCase();
  const unit = u.searchParams.get('unit') ?? 'oz';
  if (currency !== 'USD') q.set('currency', currency);
  if (unit !== 'oz') q.set('unit', unit);
  // Sorted by code unit: localeCompare would build the browser's collator, tens of milliseconds on a phone, for ASCII keys.
  const rest = [...u.searchParams].filter(([k]) => k !== 'currency' && k !== 'unit');
  for (const [k, v] of rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) q.append(k, v);
  const query = q.toString();
  return u.pathname + (query ? `?${query}` : '');
}

/**
 * Whether this frame can share a stream with the frames of its origin: both APIs are there, and the frame has an
 * origin to share (a sandboxed frame's is opaque, `'null'`: Web Locks refuse it, and no other frame is the same).
 */
const canShare = () => typeof BroadcastChannel !== 'undefined' && typeof navigator !== 'undefined' && 'locks' in navigator && self.origin !== 'null';

/** The channel of the stream named `name`; null where this frame cannot share (or the browser refuses the channel). */
function channelFor(name: string): BroadcastChannel | null {
  if (!canShare()) return null;
  try {
    return new BroadcastChannel(name);
  } catch {
    return null;
  }
}

/**
 * Follows the price stream at `url()`, calling `onPrice` with each event; null when this browser cannot
 * (no EventSource). `fallback` runs once, and the stream is dropped for good, when the server refuses it
 * (turned off, full, an error answer), it keeps failing or it stays silent for two heartbeats. A hidden
 * page holds no stream; shown again, it reconnects and the first event is the current state. The stream's
 * own end (every few minutes) is a plain reconnect, done by EventSource itself.
 */
export function follow(url: () => string, onPrice: (e: PriceEvent) => void, fallback: () => void): Follower | null {
  if (typeof EventSource === 'undefined') return null;
  let wanted = false;
  let failed = false;
  /** The page was left (it may come back from the back/forward cache). */
  let left = false;
  let session: (() => void) | null = null;

  const end = () => {
    session?.();
    session = null;
  };
  const giveUp = () => {
    if (failed) return;
    failed = true;
    fallback();
  };
  const connect = () => {
    end();
    if (!wanted || left || failed || document.visibilityState === 'hidden') return;
    session = join(streamUrl(url()), onPrice, giveUp);
  };
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? end() : session || connect()));
  // A page left (or a frame removed) lets go of its stream and its lock, so the next frame leads, and the page
  // may enter the back/forward cache. Restored from it, the page follows again at once: its first event is the
  // current state.
  addEventListener('pagehide', () => {
    left = true;
    end();
  });
  addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    left = false;
    connect();
  });
  return {
    open() {
      wanted = true;
      connect();
    },
    close() {
      wanted = false;
      end();
    },
  };
}

/**
 * Follows the stream at `url` until the returned function is called: leading it when this frame gets the
 * lock (or cannot share), following the leader otherwise. `giveUp` runs when the stream fails or falls silent.
 */
function join(url: string, onPrice: (e: PriceEvent) => void, giveUp: () => void): () => void {
  const name = `gold-stream ${url}`;
  const channel = channelFor(name);
  const waiting = new AbortController();
  let source: EventSource | null = null;
  let leading = false;
  let over = false;
  let last: PriceEvent | null = null;
  let shown = '';
  let release = () => {};
  let silence: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    if (over) return;
    over = true;
    clearTimeout(silence);
    source?.close();
    waiting.abort();
    channel?.close();
    release();
  };
  const fail = () => {
    if (over) return;
    if (leading) {
      // The followers poll too; the lock stays held (until this frame goes), so none opens a failing stream again,
      // and a widget that joins later is told at once.
      source?.close();
      source = null;
      clearTimeout(silence);
      channel?.postMessage({ failed: true } satisfies Message);
    } else stop();
    giveUp();
  };
  // Every event, a heartbeat included, says the stream is seen; two heartbeats without one say it is not.
  const heard = () => {
    clearTimeout(silence);
    silence = setTimeout(fail, 2 * heartbeatS() * 1000);
  };
  const show = (e: PriceEvent) => {
    // A late follower's greeting makes the leader say its last event again: each event is shown once.
    const text = JSON.stringify(e);
    if (text === shown) return;
    shown = text;
    last = e;
    onPrice(e);
  };

  const lead = () => {
    leading = true;
    heard();
    let failures = 0;
    const es = (source = new EventSource(url));
    es.addEventListener('price', (m) => {
      failures = 0;
      heard();
      let e: PriceEvent;
      try {
        e = JSON.parse((m as MessageEvent<string>).data) as PriceEvent;
      } catch {
        return; // Not an event of ours: keep what is shown.
      }
      channel?.postMessage({ price: e } satisfies Message);
      show(e);
    });
    es.addEventListener('heartbeat', () => {
      heard();
      channel?.postMessage({ beat: true } satisfies Message);
    });
    es.onerror = () => {
      // CLOSED: refused (a status other than 200, or not an event stream); else the browser is retrying by itself.
      if (es.readyState !== EventSource.CLOSED && ++failures < GIVE_UP_AFTER) return;
      // A frame being removed from its page sees its stream fail as it goes, before any event says it goes: a
      // failure counts only if the frame is still there a moment later (a removed frame runs no more timers).
      setTimeout(fail, SETTLE_MS);
    };
  };

  if (!channel) {
    lead();
    return stop;
  }
  channel.onmessage = (m: MessageEvent<Message>) => {
    const msg = m.data;
    if ('hello' in msg) {
      if (leading) channel.postMessage((source ? { price: last } : { failed: true }) as Message);
    } else if (!leading) {
      if ('failed' in msg) return fail();
      heard();
      if ('price' in msg && msg.price) show(msg.price);
    }
  };
  heard();
  channel.postMessage({ hello: true } satisfies Message);
  // Refused (a context the browser keeps from Web Locks, at once or by a rejection): nobody can lead by the lock,
  // so this frame opens its own stream at once rather than waiting for silence.
  const refused = () => {
    if (!over && !leading && !waiting.signal.aborted) lead();
  };
  try {
    navigator.locks
      .request(name, { signal: waiting.signal }, () => {
        if (over) return;
        lead();
        // Held until this widget stops following this URL (or its frame goes).
        return new Promise<void>((resolve) => (release = resolve));
      })
      // Aborted while waiting (this widget stopped following before it led), or refused.
      .catch(refused);
  } catch {
    refused();
  }
  return stop;
}

/** Whether the page asked to poll instead (`live=0`, as a widget's own query or the landing page's). */
export function pollOnly(): boolean {
  return ['0', 'false', 'no', 'off'].includes((new URLSearchParams(location.search).get('live') ?? '').toLowerCase());
}
