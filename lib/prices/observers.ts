import type { MetalId } from '../reference/metals';
import { afterAnswer } from '../store/after-answer';
import type { Served } from './served';

// Who wants to know of each served price (the price alerts, lib/alerts/): called from the one place a price
// is chosen (lib/prices/served-price.ts), whatever read it (a request, the sampler, the cron, the stream's
// polls). An observer's work is handed to the platform (after-answer) and never awaited on the reading's path.
// The list lives on globalThis: Next bundles instrumentation.ts apart from the routes, and an observer
// registered at start must hear the readings of every bundle. One observer per name; the first one stays.

export type ServedObserver = (metal: MetalId, served: Served) => Promise<void> | void;

const SLOT = Symbol.for('goldapi.served-observers');
const slot = globalThis as { [SLOT]?: Map<string, ServedObserver> };

function observers(): Map<string, ServedObserver> {
  return (slot[SLOT] ??= new Map());
}

/** Registers `fn` under `name` unless an observer of that name is registered already. */
export function observeServed(name: string, fn: ServedObserver): void {
  if (!observers().has(name)) observers().set(name, fn);
}

/** Removes the observer of `name` (tests). */
export function unobserveServed(name: string): void {
  observers().delete(name);
}

/** Tells every observer of a served price; their work finishes after the answer and never throws here. */
export function notifyServed(metal: MetalId, served: Served): void {
  for (const [name, fn] of observers()) {
    try {
      const work = fn(metal, served);
      if (work)
        afterAnswer(work.catch((err) => console.warn(`[${name}] observing ${metal} failed: ${err instanceof Error ? err.message : String(err)}`)));
    } catch (err) {
      console.warn(`[${name}] observing ${metal} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
