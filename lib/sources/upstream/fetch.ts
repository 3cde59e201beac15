import type { z } from 'zod';
import { config } from '../../core/config';
import { VERSION } from '../../core/version';
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

/** GET `url` as JSON within the upstream timeout. Throws UpstreamError on network failure, timeout or non-JSON. */
export async function getJson(upstream: string, url: string): Promise<FetchedJson> {
  const timeout = upstreamTimeout(config.upstreamTimeoutMs());
  try {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': `goldapi/${VERSION}` },
        signal: timeout.signal,
        cache: 'no-store',
      });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new UpstreamError(upstream, why);
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new UpstreamError(upstream, 'body interrupted', res.status);
    }
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      throw new UpstreamError(upstream, `HTTP ${res.status}, body is not JSON`, res.status);
    }
  } finally {
    timeout.clear();
  }
}

/** GET and validate: a 2xx JSON body that matches `schema`, else UpstreamError. */
export async function getValid<S extends z.ZodType>(upstream: string, url: string, schema: S): Promise<z.infer<S>> {
  const { status, body } = await getJson(upstream, url);
  if (status < 200 || status > 299) throw new UpstreamError(upstream, `HTTP ${status}`, status, body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UpstreamError(upstream, `unexpected shape: ${parsed.error.issues[0]?.message}`, status);
  return parsed.data;
}

/** A finite, positive number: what every price must be. */
export function isPrice(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0;
}

/** GET `url` as bytes within the upstream timeout: a 2xx body, else UpstreamError (as getJson, for files that are not JSON). */
export async function getBytes(upstream: string, url: string): Promise<Uint8Array> {
  const timeout = upstreamTimeout(config.upstreamTimeoutMs());
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers: { 'user-agent': `goldapi/${VERSION}` }, signal: timeout.signal, cache: 'no-store' });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new UpstreamError(upstream, why);
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      throw new UpstreamError(upstream, `HTTP ${res.status}`, res.status);
    }
    try {
      return new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      // The body cut off by the timeout is a timeout; by the connection, an interrupted body.
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'body interrupted';
      throw new UpstreamError(upstream, why, res.status);
    }
  } finally {
    timeout.clear();
  }
}
