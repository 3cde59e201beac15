// What must happen before `npm start`'s server stops (SIGTERM, SIGINT): hooks registered by code Next
// loaded, run by server.mjs as it closes. Each route is bundled apart, so the list lives on globalThis.
const KEY = Symbol.for('goldapi.shutdown');
const STOPPING = Symbol.for('goldapi.stopping');

/** @returns {Set<() => void>} */
function hooks() {
  const g = /** @type {Record<symbol, Set<() => void> | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[KEY] ??= new Set());
}

/** Runs `fn` when the server is told to stop. */
export function onShutdown(/** @type {() => void} */ fn) {
  hooks().add(fn);
}

/** Whether the server was told to stop: it drains the answers under way and takes no new work. */
export function stopping() {
  const g = /** @type {Record<symbol, boolean | undefined>} */ (/** @type {unknown} */ (globalThis));
  return g[STOPPING] === true;
}

/** Runs every hook; one that throws is logged and the others still run. From then on `stopping()` is true. */
export function runShutdown() {
  /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis))[STOPPING] = true;
  for (const fn of hooks()) {
    try {
      fn();
    } catch (err) {
      console.error(`[shutdown] ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
