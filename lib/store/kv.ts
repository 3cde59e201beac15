import { Redis } from '@upstash/redis';
import { reasonOf, RedisStore, type RedisWire, type Reply } from './redis-store';
import type { Store } from './types';

// The shared store over Upstash's REST protocol (Vercel KV / Upstash Redis: KV_REST_API_URL and KV_REST_API_TOKEN):
// each command or script is one HTTPS request, which suits serverless instances. The store itself, its keys, scripts
// and outage handling are lib/store/redis-store.ts, the same as over TCP (lib/store/redis.ts).

export interface KvOptions {
  /** REST endpoint (KV_REST_API_URL). */
  url: string;
  /** REST token (KV_REST_API_TOKEN). */
  token: string;
  /** Prepended to every key, so several deployments or test runs can share one database. */
  prefix: string;
  /** Longest a single KV request may take before KV counts as down, ms. */
  timeoutMs: number;
}

export function openKvStore(opts: KvOptions): Store {
  const store = { kind: 'kv', label: 'KV', prefix: opts.prefix, timeoutMs: opts.timeoutMs } as const;
  try {
    return new RedisStore(upstashWire(opts), store);
  } catch (err) {
    return new RedisStore(null, store, `unusable KV_REST_API_URL: ${reasonOf(err)}`);
  }
}

function upstashWire(opts: KvOptions): RedisWire {
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    // retry:false would still try twice in 1.39; zero retries is one attempt. The store's timeout and
    // probe decide when KV is back, not the client's backoff.
    retry: { retries: 0 },
    // A fresh signal per HTTP request (a fixed one would abort every later request too).
    signal: () => AbortSignal.timeout(opts.timeoutMs),
    // Replies as Redis gave them (RESP2 in JSON), which the store decodes itself.
    automaticDeserialization: false,
    enableTelemetry: false,
  });
  return {
    send: (args) => redis.exec<Reply>(args as [string, ...string[]]),
    eval: (script, keys, args) => redis.exec<Reply>(['EVAL', script, String(keys.length), ...keys, ...args]),
    errorReply,
    reason: reasonOf,
    close: async () => {},
  };
}

/**
 * Redis's error reply inside an UpstashError, else null. Upstash answers a refused command with {"error": "..."},
 * with HTTP 400 for a single command, and the client throws UpstashError with Redis's text in one of its framings.
 * Errors that are not UpstashError (network, timeout, HTTP status errors) and an answer that is not JSON
 * (UpstashJSONParseError) are the transport's.
 */
function errorReply(err: unknown): string | null {
  if (!(err instanceof Error) || err.name !== 'UpstashError') return null;
  // "Command failed: X", "Command 2 [ zadd ] failed: X", "X, command was: [...]", or X.
  return err.message.replace(/^Command (?:\d+ \[ [^\]]* \] )?failed: /, '').replace(/, command was: [\s\S]*$/, '');
}
