import { config } from '../core/config';
import { openEmbeddedStore } from './embedded';
import { openKvStore } from './kv';
import { openRedisStore, redisAddress } from './redis';
import { StoreDownError, type Store } from './types';

export type { BarsVersion, DailyBar, Point, Store, StoreHealth } from './types';
export { KEPT_REMOVALS, StoreDownError } from './types';

// One store per process, opened on first use: a Redis over TCP when REDIS_URL is set, else Vercel KV / Upstash Redis
// over REST when KV_REST_API_URL and KV_REST_API_TOKEN are set (either shared by every instance), else the embedded
// SQLite file in DATA_DIR. None throws: a store that cannot be used runs degraded (logged once) and the service answers
// from memory. The instance lives on globalThis: Next bundles instrumentation.ts apart from the routes, and each bundle
// has its own copy of this module, yet the process must open (and report) its store once, and hold one connection.
const SLOT = Symbol.for('goldapi.store');
const slot = globalThis as { [SLOT]?: Store };

export function getStore(): Store {
  slot[SLOT] ??= openStore();
  return slot[SLOT];
}

/** The store the environment selects; a shared one is named in the start-up log (where, never a password), with why. */
function openStore(): Store {
  const redisUrl = config.redisUrl();
  const kv = config.kv();
  const shared = { prefix: config.kvPrefix(), timeoutMs: config.kvTimeoutMs() };
  if (redisUrl) {
    let where = 'an unusable URL';
    try {
      where = redisAddress(redisUrl);
    } catch {
      /* the store says why, once, as it opens */
    }
    // REDIS_URL is set by hand for a Redis of one's own; the KV variables are often set by a platform's integration.
    const why = kv
      ? '; KV_REST_API_URL and KV_REST_API_TOKEN are set too and not used (REDIS_URL wins when both are set: it names the Redis chosen for this deployment)'
      : '';
    console.log(`[store] shared store: Redis at ${where} (REDIS_URL)${why}`);
    return openRedisStore({ url: redisUrl, ...shared });
  }
  if (kv) return openKvStore({ ...kv, ...shared });
  return openEmbeddedStore(config.dataDir());
}

/** The store as debug output names it: `embedded`, `kv` or `redis`, with `-degraded` while it cannot be used. */
export function storeStatus(): { store: Store['kind'] | `${Store['kind']}-degraded`; store_degraded_since: string | null } {
  const s = getStore();
  const h = s.health?.();
  if (h?.degraded) {
    return { store: `${s.kind}-degraded`, store_degraded_since: h.since === null ? null : new Date(h.since).toISOString() };
  }
  return { store: s.kind, store_degraded_since: null };
}

/** Store trouble must never take a response down: log it and carry on from memory. */
export async function safely<R>(fn: () => Promise<R>, what: string): Promise<R | null> {
  try {
    return await fn();
  } catch (err) {
    // An unreachable shared store has logged its outage once already; one line per request would drown the log.
    if (!(err instanceof StoreDownError)) console.warn(`[store] ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
