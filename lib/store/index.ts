import { config } from '../core/config';
import { openEmbeddedStore } from './embedded';
import { openKvStore } from './kv';
import { StoreDownError, type Store } from './types';

export type { BarsVersion, DailyBar, Point, Store, StoreHealth } from './types';
export { KEPT_REMOVALS, StoreDownError } from './types';

// One store per process, opened on first use: Vercel KV / Upstash Redis when KV_REST_API_URL and
// KV_REST_API_TOKEN are set (shared by every instance), else the embedded SQLite file in DATA_DIR.
// Neither throws: a store that cannot be used runs degraded (logged once) and the service answers from memory.
// The instance lives on globalThis: Next bundles instrumentation.ts apart from the routes, and each
// bundle has its own copy of this module, yet the process must open (and report) its store once.
const SLOT = Symbol.for('goldapi.store');
const slot = globalThis as { [SLOT]?: Store };

export function getStore(): Store {
  if (!slot[SLOT]) {
    const kv = config.kv();
    slot[SLOT] = kv ? openKvStore({ ...kv, prefix: config.kvPrefix(), timeoutMs: config.kvTimeoutMs() }) : openEmbeddedStore(config.dataDir());
  }
  return slot[SLOT];
}

/** The store as debug output names it: `embedded` or `kv`, with `-degraded` while it cannot be used. */
export function storeStatus(): { store: 'embedded' | 'embedded-degraded' | 'kv' | 'kv-degraded'; store_degraded_since: string | null } {
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
    // An unreachable KV has logged its outage once already; one line per request would drown the log.
    if (!(err instanceof StoreDownError)) console.warn(`[store] ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
