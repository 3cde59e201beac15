import { createHash } from 'node:crypto';
import { reasonOf, RedisStore, type RedisWire, type Reply } from './redis-store';
import type { Store } from './types';

// The shared store on any server that speaks the Redis protocol (Redis 6.2+, Valkey; a VM, Kubernetes, Redis Cloud,
// ElastiCache without cluster mode), reached over TCP with REDIS_URL: `redis://` or `rediss://` (TLS), user and
// password from the URL, a database number as its path. The store itself, its keys, scripts and outage handling are
// lib/store/redis-store.ts, the same as over Upstash's REST API (lib/store/kv.ts).
//
// The client is node-redis (@redis/client, the core of the `redis` package: Redis's own client for Node, the one it
// recommends for new projects), loaded only when REDIS_URL is set. One connection per instance, made when the store
// opens and kept on the store, which lives on globalThis (lib/store/index.ts), so a serverless instance reuses it
// across requests. When it drops, node-redis connects again by itself, backing off from 100 ms to 2 s. It speaks
// RESP2, whose replies are the shapes Upstash's REST API gives (RESP3 would turn a hash into a map, a score into a
// double). Every command carries the store's timeout (KV_TIMEOUT_MS): a command waiting in node-redis's offline queue
// while the connection is down leaves the queue when it times out, so nothing waits past it and nothing queued runs
// later. Scripts run by EVALSHA, sent whole again when the server does not hold them (NOSCRIPT).

export interface RedisOptions {
  /** REDIS_URL: `redis[s]://[[user]:password@]host[:port][/db]`. */
  url: string;
  /** Prepended to every key (KV_PREFIX). */
  prefix: string;
  /** Longest a single command may take before Redis counts as down, ms (KV_TIMEOUT_MS). */
  timeoutMs: number;
}

export function openRedisStore(opts: RedisOptions): Store {
  const store = { kind: 'redis', label: 'Redis', prefix: opts.prefix, timeoutMs: opts.timeoutMs } as const;
  try {
    redisAddress(opts.url);
  } catch (err) {
    return new RedisStore(null, store, `unusable REDIS_URL: ${reasonOf(err)}`);
  }
  return new RedisStore(tcpWire(opts), store);
}

/** Where REDIS_URL points, for the log: never its user or password. Throws when it is not a redis:// or rediss:// URL. */
export function redisAddress(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new TypeError(`${u.protocol} is not redis: or rediss:`);
  const db = u.pathname.length > 1 ? u.pathname.slice(1) : '';
  if (db && !/^\d+$/.test(db)) throw new TypeError(`the path must be a database number, not ${JSON.stringify(db)}`);
  return `${u.hostname}:${u.port || 6379}${db ? `/${db}` : ''}${u.protocol === 'rediss:' ? ' over TLS' : ''}`;
}

/** Waits before each new attempt to connect: doubling from 100 ms to 2 s, with a little jitter so instances spread. */
const backoff = (retries: number) => Math.min(100 * 2 ** retries, 2000) + Math.floor(Math.random() * 100);

type RedisModule = typeof import('@redis/client');

function tcpWire(opts: RedisOptions): RedisWire {
  let mod: RedisModule | null = null;
  /** The connection's latest failure while it is not ready (a refused password, a refused connection), named when a command times out. */
  let trouble: unknown = null;
  const client = import('@redis/client').then((m) => {
    mod = m;
    const c = m.createClient({
      url: opts.url,
      RESP: 2,
      // A number always: node-redis's default gives up for good after a connect timeout.
      socket: { reconnectStrategy: backoff },
      commandOptions: { timeout: opts.timeoutMs },
    });
    // Every failed attempt is an 'error' event; the store logs the outage once, when a command fails.
    c.on('error', (err: unknown) => (trouble = err));
    c.on('ready', () => (trouble = null));
    // Resolves once connected; until then commands wait in the queue (each within its timeout).
    c.connect().catch(() => {});
    return c;
  });
  // A client that cannot load fails each command (an outage, logged by the store), never the process.
  client.catch(() => {});
  const shas = new Map<string, string>();
  const sha1 = (script: string) => {
    let sha = shas.get(script);
    if (!sha) shas.set(script, (sha = createHash('sha1').update(script).digest('hex')));
    return sha;
  };
  const errorReply = (err: unknown) => (mod && err instanceof mod.ErrorReply ? err.message : null);
  return {
    send: async (args) => (await client).sendCommand<Reply>(args),
    async eval(script, keys, args) {
      const c = await client;
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await c.sendCommand<Reply>(['EVALSHA', sha1(script), ...tail]);
      } catch (err) {
        if (!errorReply(err)?.startsWith('NOSCRIPT')) throw err;
        return c.sendCommand<Reply>(['EVAL', script, ...tail]);
      }
    },
    errorReply,
    reason(err) {
      const timedOut = (mod && err instanceof mod.TimeoutError) || (err instanceof Error && err.name === 'TimeoutError');
      if (!timedOut) return reasonOf(err);
      return trouble ? `timed out, not connected: ${reasonOf(trouble)}` : 'timed out';
    },
    async close() {
      const c = await client.catch(() => null);
      if (c?.isOpen) c.destroy();
    },
  };
}
