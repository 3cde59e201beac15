import { metrics } from '../core/metrics.mjs';

// Where lib/sources/upstream/fetch.ts hands each attempt's outcome. It counts the attempt in the metrics and
// passes it to the writer lib/sources/outcomes.ts installs (which keeps it in the store): fetch.ts is also
// bundled into pages that only read its validators, and must not pull the store in with it. One writer per
// process, on globalThis; until one is installed (a script that reads no feed) only the metrics count.

export type FailureKind = 'timeout' | 'http' | 'invalid' | 'network';

export interface Outcome {
  /** When it ended, ms. */
  at: number;
  /** How long it took, ms. */
  ms: number;
  /** Why it failed; null for a success. */
  kind: FailureKind | null;
  /** The HTTP status, when an answer came. */
  status: number | null;
}

type Writer = (upstream: string, o: Outcome) => void;
const SLOT = Symbol.for('goldapi.outcome-writer');
const slot = globalThis as { [SLOT]?: Writer };

/** Notes one attempt. Never throws, never waits. */
export function recordOutcome(upstream: string, o: Outcome): void {
  const m = metrics();
  m.upstreamAttempts.inc({ upstream });
  if (o.kind) m.upstreamFailures.inc({ upstream, kind: o.kind });
  slot[SLOT]?.(upstream, o);
}

export function setOutcomeWriter(write: Writer): void {
  slot[SLOT] = write;
}
