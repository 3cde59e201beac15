import { config } from '../core/config';

// How long each cacheable answer may be reused, in seconds, in one table that the routes, the
// OpenAPI document and the docs all read. Two headers carry it:
// - `Cache-Control: public, max-age=N` for browsers;
// - `CDN-Cache-Control: max-age=N, stale-while-revalidate=N` (RFC 9213) for shared caches: a CDN in
//   front (Vercel's honours it) and the response cache of `npm start` read it instead of
//   Cache-Control, and may serve a copy up to N seconds past its lifetime while one request
//   refreshes it. So a cached price is never older than 2N seconds plus the data's own TTL.
// Errors, the cron route and /mcp answer `no-store` and are never cached.

export const CACHE_SECONDS = {
  spot: 30,
  intraday: 60,
  /** Chart with an intraday interval (minutes, 1h). */
  chartIntraday: 60,
  /** Chart with a daily or longer interval. */
  chart: 300,
  history: 300,
  reserves: 3600,
  /** The bullion coins (decisions §31): data of the release. */
  items: 3600,
  /** The status record (decisions §26). */
  status: 30,
  openapi: 3600,
  llms: 3600,
  /** Widget pages: the N of the data they show. */
  widgetPrice: 30,
  widgetChart: 60,
  widgetConverter: 30,
  /** The landing page: the price it shows (spot's N). */
  landing: 30,
  /** The price pages (decisions §27): the price they show (spot's N). */
  pricePage: 30,
  /** Docs pages: they change with a new build only, but stay short so a new one shows soon. */
  docs: 60,
} as const;

export type CacheRoute = keyof typeof CACHE_SECONDS;

/** Seconds for `route`; the test-only CACHE_TTL_S shortens every cache, these included. */
export function cacheSeconds(route: CacheRoute): number {
  return config.ttlOverrideS() ?? CACHE_SECONDS[route];
}

/** The browser value for N seconds. */
export const browserCache = (n: number) => `public, max-age=${n}`;
/** The shared-cache value for N seconds. */
export const sharedCache = (n: number) => `max-age=${n}, stale-while-revalidate=${n}`;

/** Both caching headers of a cacheable 200 of `route`. */
export function cacheHeaders(route: CacheRoute): { 'Cache-Control': string; 'CDN-Cache-Control': string } {
  const n = cacheSeconds(route);
  return { 'Cache-Control': browserCache(n), 'CDN-Cache-Control': sharedCache(n) };
}

/** The headers of anything that must never be stored: errors, the cron route, /mcp. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;
