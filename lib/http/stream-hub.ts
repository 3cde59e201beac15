import { config } from '../core/config';
import { onShutdown } from '../core/shutdown.mjs';
import { eventId, eventKey, priceEvent, readLive, type LiveRead } from '../prices/live';
import type { Unit } from '../reference/units';
import { HEARTBEAT_EVENT, PRICE_EVENT, RETRY_MS, type HeartbeatEvent, type PriceEvent } from '../schemas/stream';
import { bytes, commentBlock, eventBlock, retryBlock } from './sse';

// The instance's one hub behind GET /api/v1/stream (decisions §21). While any stream is open, one timer
// reads the served price of every metal (the reads spot makes: each feed's TTL and single flight, and with
// KV the price other instances fetched) and writes each change to the open streams, grouped by currency
// and unit so an event is built and encoded once per group. Clients never cause upstream calls: a
// thousand streams cost the reads one does. The same timer sends a `heartbeat` event to a stream that
// has been quiet (an event, not a comment, which EventSource never surfaces: a client that hears nothing
// for two heartbeats knows a proxy holds its stream back, and polls) and ends a stream that reached
// STREAM_MAX_S. With no stream open, nothing runs.

/** How often the hub reads the served price: a price another request fetched reaches the streams within this. */
const READ_EVERY_MS = 1000;
/** Chunks a client may leave unread before it is dropped rather than buffered without end. */
const MAX_UNREAD = 64;
/** The heartbeat's bytes for a period (seconds), made once per period (tests shorten it). */
const heartbeats = new Map<number, Uint8Array>();
function heartbeat(everyS: number): Uint8Array {
  let chunk = heartbeats.get(everyS);
  if (!chunk) {
    const data: HeartbeatEvent = { every_s: everyS };
    heartbeats.set(everyS, (chunk = bytes(eventBlock(HEARTBEAT_EVENT, null, JSON.stringify(data)))));
  }
  return chunk;
}
const RETRY = bytes(retryBlock(RETRY_MS));

/** Where a stream's bytes go: the response body of one client. */
export interface Sink {
  /** Queues bytes for the client; false when it is gone or too far behind. */
  write(chunk: Uint8Array): boolean;
  close(): void;
}

/** A stream's first bytes, made before its response starts (so a failure is still a JSON error). */
export interface Opening {
  currency: string;
  unit: Unit;
  event: PriceEvent;
  key: string;
  /** The `retry:` line and the current state, in one chunk. */
  chunk: Uint8Array;
}

interface Client {
  sink: Sink;
  group: Group;
  openedAt: number;
  lastWrite: number;
  /** The key of the last event this client got (shared by its group, so no copy per client). */
  sentKey: string;
}

interface Group {
  currency: string;
  unit: Unit;
  clients: Set<Client>;
}

const frame = (event: PriceEvent) => eventBlock(PRICE_EVENT, eventId(event), JSON.stringify(event));

export class StreamHub {
  private groups = new Map<string, Group>();
  /** Open streams plus slots reserved by streams being opened: what the cap counts. */
  private count = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The latest read while the timer runs; events for joining clients are made from it. */
  private latest: LiveRead | null = null;
  private reading: Promise<LiveRead> | null = null;
  private publishing = false;

  /** Open streams (and streams being opened) on this instance. */
  get size(): number {
    return this.count;
  }

  /** Takes a slot under STREAM_MAX_CLIENTS for a stream about to open; false when none is left. */
  reserve(): boolean {
    if (this.count >= config.stream.maxClients()) return false;
    this.count++;
    return true;
  }

  /** Gives back a slot a stream did not take (it failed before opening). */
  release(): void {
    this.count = Math.max(0, this.count - 1);
  }

  /** What spot would serve now: the hub's latest read while it runs, else one read (shared by concurrent callers). */
  current(): Promise<LiveRead> {
    return this.timer && this.latest ? Promise.resolve(this.latest) : this.read();
  }

  /** The first bytes of a new stream in `currency` (checked against `read`) and `unit`. */
  async opening(read: LiveRead, currency: string, unit: Unit): Promise<Opening> {
    for (;;) {
      const event = await priceEvent(read, currency, unit);
      // A newer read published meanwhile: make the event again from it, so the client starts where its group is.
      if (this.timer && this.latest && this.latest !== read) {
        read = this.latest;
        continue;
      }
      return { currency, unit, event, key: eventKey(event), chunk: concat(RETRY, bytes(frame(event))) };
    }
  }

  /** Opens a stream on a reserved slot: writes its first bytes and adds it to its group. Returns its leave(). */
  join(opening: Opening, sink: Sink): () => void {
    const id = `${opening.currency}|${opening.unit}`;
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = { currency: opening.currency, unit: opening.unit, clients: new Set() }));
    const now = Date.now();
    const client: Client = { sink, group, openedAt: now, lastWrite: now, sentKey: opening.key };
    group.clients.add(client);
    if (!sink.write(opening.chunk)) this.leave(client);
    else this.start();
    return () => this.leave(client);
  }

  private leave(client: Client): void {
    const { group } = client;
    if (!group.clients.delete(client)) return;
    this.count = Math.max(0, this.count - 1);
    if (group.clients.size === 0) this.groups.delete(`${group.currency}|${group.unit}`);
    if (this.groups.size === 0) this.stop();
  }

  private read(): Promise<LiveRead> {
    return (this.reading ??= readLive().finally(() => (this.reading = null)));
  }

  private start(): void {
    if (this.timer) return;
    const every = Math.min(READ_EVERY_MS, (config.stream.heartbeatS() * 1000) / 2);
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref?.();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.latest = null;
  }

  /** Every turn: heartbeats and ends first (they never wait on a read), then a read unless one is under way. */
  private tick(): void {
    const now = Date.now();
    const maxS = config.stream.maxS();
    const everyS = config.stream.heartbeatS();
    for (const group of [...this.groups.values()]) {
      for (const client of [...group.clients]) {
        if (now - client.openedAt >= maxS * 1000) this.end(client, `this stream ends after ${maxS} s; reconnect for the next one`);
        else if (now - client.lastWrite >= everyS * 1000) this.send(client, heartbeat(everyS), now);
      }
    }
    if (this.publishing) return;
    this.publishing = true;
    this.read()
      .then((read) => this.publish(read))
      .catch((err) => console.warn(`[stream] read failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => (this.publishing = false));
  }

  /** Writes each group's event to the clients that have not had it: one event and one encoding per group. */
  private async publish(read: LiveRead): Promise<void> {
    if (!this.timer) return;
    this.latest = read;
    const now = Date.now();
    for (const group of [...this.groups.values()]) {
      if (group.clients.size === 0) continue;
      const event = await priceEvent(read, group.currency, group.unit, now);
      const key = eventKey(event);
      let chunk: Uint8Array | null = null;
      for (const client of [...group.clients]) {
        if (client.sentKey === key) continue;
        chunk ??= bytes(frame(event));
        if (this.send(client, chunk, Date.now())) client.sentKey = key;
      }
    }
  }

  private send(client: Client, chunk: Uint8Array, now: number): boolean {
    if (!client.sink.write(chunk)) {
      client.sink.close();
      this.leave(client);
      return false;
    }
    client.lastWrite = now;
    return true;
  }

  /**
   * Ends every open stream: the instance is stopping (server.mjs runs this on SIGTERM), so its clients
   * reconnect at once, to an instance that runs, instead of holding the shutdown until they leave.
   */
  endAll(): void {
    for (const group of [...this.groups.values()]) for (const client of [...group.clients]) this.end(client, 'this instance is stopping; reconnect');
  }

  /** A stream's end: a last comment, then EventSource reconnects by itself. */
  private end(client: Client, comment: string): void {
    client.sink.write(bytes(commentBlock(comment)));
    client.sink.close();
    this.leave(client);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

// One hub per process, whichever copy of this module the framework loaded.
const KEY = Symbol.for('goldapi.stream-hub');

export function streamHub(): StreamHub {
  const g = globalThis as Record<symbol, StreamHub | undefined>;
  let hub = g[KEY];
  if (!hub) {
    g[KEY] = hub = new StreamHub();
    onShutdown(() => hub!.endAll());
  }
  return hub;
}

/** The sink of a ReadableStream's controller: refuses a client that stopped reading. */
export function controllerSink(controller: ReadableStreamDefaultController<Uint8Array>): Sink {
  let closed = false;
  return {
    write(chunk) {
      if (closed || (controller.desiredSize !== null && controller.desiredSize < -MAX_UNREAD)) return false;
      try {
        controller.enqueue(chunk);
        return true;
      } catch {
        closed = true;
        return false;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        controller.close();
      } catch {
        /* already closed or errored: the client is gone */
      }
    },
  };
}
