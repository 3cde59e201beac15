// Writes of the service's own record (daily bars, closing FX, the last price served) must not float
// after an answer: on Vercel a function that has answered may be frozen with its pending promises,
// unless they are registered with the platform's `waitUntil`. The platform hands it over in a request
// context on globalThis: Next's own `after()` reads it there (`@next/request-context`), as does
// `@vercel/functions` (`@vercel/request-context`). `after()` itself cannot be used here: the landing
// page (Pages Router) serves the same spot answer, and Next refuses `after` in that graph. Where no
// platform context exists (`npm start`, the self-hosted sampler, a script) the process outlives the
// write, and callers that must answer after it (the cron route) await it themselves.

type RequestContext = { get?: () => { waitUntil?: (p: Promise<unknown>) => void } | undefined };
const CONTEXTS = [Symbol.for('@next/request-context'), Symbol.for('@vercel/request-context')];

/** Keeps `write` alive past the answer on a platform that would freeze it; `write` must not reject. */
export function afterAnswer(write: Promise<unknown>): void {
  for (const key of CONTEXTS) {
    const waitUntil = ((globalThis as Record<symbol, RequestContext | undefined>)[key]?.get?.() ?? {}).waitUntil;
    if (waitUntil) return waitUntil(write);
  }
}
