import type { z } from 'zod';
import { config } from '../../core/config';
import { VERSION } from '../../core/version';
import { recordOutcome, type FailureKind } from '../outcome-sink';
import { upstreamTimeout } from './timeout';

/** Any way an upstream can let us down: refused, hung, non-2xx, non-JSON, wrong shape, absurd value. */
export class UpstreamError extends Error {
  constructor(
    readonly upstream: string,
    /** What went wrong, in words safe to show a client. */
    readonly reason: string,
    readonly status?: number,
    readonly body?: unknown,
  ) {
    super(`${upstream}: ${reason}`);
  }
}

export interface FetchedJson {
  status: number;
  body: unknown;
}

// Every attempt on an upstream is recorded here, once (lib/sources/outcomes.ts keeps the counts the status
// page shows, through outcome-sink.ts). A transport failure, a non-2xx status or a body that is not JSON is known here. A 2xx JSON
// body is only good once the caller has read it: the shape, the plausibility bounds and a feed's own check
// come later. So an attempt that came back well waits in the scope of `attempting()` (the feed's fetch and
// check), which records it as `ok` when the scope returns, or `invalid` when it throws. Outside any scope
// (a script) it counts as `ok` at once.

interface Answered {
  upstream: string;
  at: number;
  ms: number;
  status: number;
}
// Looked up at run time: this file is also bundled into pages that only read its validators, where a static
// import of a Node module cannot be bundled.
type Als = typeof import('node:async_hooks');
const scope = new (process.getBuiltinModule('node:async_hooks') as Als).AsyncLocalStorage<Answered[]>();

/**
 * Runs `read` (an adapter's fetch, its validation and any check of the value) as one scope: the answers it
 * got count as `invalid` when it throws, `ok` when it returns. Nested scopes hand their answers outwards.
 */
export async function attempting<T>(read: () => Promise<T>): Promise<T> {
  const answered: Answered[] = [];
  let value: T;
  try {
    value = await scope.run(answered, read);
  } catch (err) {
    for (const a of answered) recordOutcome(a.upstream, { at: a.at, ms: a.ms, kind: 'invalid', status: a.status });
    throw err;
  }
  const outer = scope.getStore();
  if (outer) outer.push(...answered);
  else for (const a of answered) recordOutcome(a.upstream, { at: a.at, ms: a.ms, kind: null, status: a.status });
  return value;
}

/** Records one attempt that failed at the transport or HTTP level, and returns the error to throw. */
function failed(upstream: string, started: number, kind: FailureKind, reason: string, status?: number, body?: unknown): UpstreamError {
  recordOutcome(upstream, { at: Date.now(), ms: performance.now() - started, kind, status: status ?? null });
  return new UpstreamError(upstream, reason, status, body);
}

/**
 * GET `url` as JSON within the upstream timeout. Throws UpstreamError on network failure, timeout or non-JSON.
 * A non-2xx JSON answer is returned (the caller may read its error body) but recorded as an `http` failure.
 */
export async function getJson(upstream: string, url: string, declined?: number): Promise<FetchedJson> {
  const timeout = upstreamTimeout(config.upstreamTimeoutMs());
  const started = performance.now();
  try {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': `goldapi/${VERSION}` },
        signal: timeout.signal,
        cache: 'no-store',
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      throw failed(upstream, started, timedOut ? 'timeout' : 'network', timedOut ? 'timed out' : 'unreachable');
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      throw failed(upstream, started, timedOut ? 'timeout' : 'network', 'body interrupted', res.status);
    }
    // `declined`: a status the upstream answers by design to a request the caller will reshape (not a failure).
    const ok = (res.status >= 200 && res.status <= 299) || res.status === declined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw failed(upstream, started, ok ? 'invalid' : 'http', `HTTP ${res.status}, body is not JSON`, res.status);
    }
    if (!ok) recordOutcome(upstream, { at: Date.now(), ms: performance.now() - started, kind: 'http', status: res.status });
    else {
      const answer = { upstream, at: Date.now(), ms: performance.now() - started, status: res.status };
      const pending = scope.getStore();
      if (pending) pending.push(answer);
      else recordOutcome(upstream, { at: answer.at, ms: answer.ms, kind: null, status: answer.status });
    }
    return { status: res.status, body };
  } finally {
    timeout.clear();
  }
}

/**
 * GET and validate: a 2xx JSON body that matches `schema`, else UpstreamError. `declined`: a status with which the
 * upstream declines the request as asked, by design (Frankfurter's 422 for a range too long to compute at once), which
 * the caller answers by asking otherwise: thrown as UpstreamError too, but recorded as an answer, not a failure.
 */
export async function getValid<S extends z.ZodType>(upstream: string, url: string, schema: S, declined?: number): Promise<z.infer<S>> {
  // Its own scope, so a body of the wrong shape counts as invalid even where no feed wraps the call.
  const got = await attempting(async () => {
    const { status, body } = await getJson(upstream, url, declined);
    if (status === declined) return { declined: new UpstreamError(upstream, `HTTP ${status}`, status, body) };
    if (status < 200 || status > 299) throw new UpstreamError(upstream, `HTTP ${status}`, status, body);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new UpstreamError(upstream, `unexpected shape: ${parsed.error.issues[0]?.message}`, status);
    return { data: parsed.data as z.infer<S> };
  });
  if ('declined' in got) throw got.declined;
  return got.data;
}

/** A finite, positive number: what every price must be. */
export function isPrice(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0;
}

/**
 * GET `url` as bytes within the upstream timeout: a 2xx body, else UpstreamError (as getJson, for files that are not
 * JSON), recorded as getJson records: a 2xx body waits for the caller's reading in the scope of `attempting()`.
 */
export async function getBytes(upstream: string, url: string): Promise<Uint8Array> {
  const timeout = upstreamTimeout(config.upstreamTimeoutMs());
  const started = performance.now();
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers: { 'user-agent': `goldapi/${VERSION}` }, signal: timeout.signal, cache: 'no-store' });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      throw failed(upstream, started, timedOut ? 'timeout' : 'network', timedOut ? 'timed out' : 'unreachable');
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      throw failed(upstream, started, 'http', `HTTP ${res.status}`, res.status);
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      // The body cut off by the timeout is a timeout; by the connection, an interrupted body.
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      throw failed(upstream, started, timedOut ? 'timeout' : 'network', timedOut ? 'timed out' : 'body interrupted', res.status);
    }
    const answer = { upstream, at: Date.now(), ms: performance.now() - started, status: res.status };
    const pending = scope.getStore();
    if (pending) pending.push(answer);
    else recordOutcome(upstream, { at: answer.at, ms: answer.ms, kind: null, status: answer.status });
    return bytes;
  } finally {
    timeout.clear();
  }
}
