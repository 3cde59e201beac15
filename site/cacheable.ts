import type { GetServerSidePropsContext } from 'next';
import { cacheHeaders, type CacheRoute } from '@/lib/http/cache';
import { etagOf, notModified } from '@/lib/http/conditional.mjs';
import { linkVary, publicOrigin } from '@/lib/http/public-origin.mjs';
import type { DataState } from '@/lib/schemas/common';

// Site pages may be cached (decisions §25): each answers with the caching headers of its entry in
// lib/http/cache.ts (a browser's short max-age, a CDN's max-age with stale-while-revalidate, which npm
// start's response cache obeys too) and validators from the data it shows, never from the clock: the
// ETag hashes this build of the pages (next.config.ts), the path, the public origin its links use and
// the data (its answer-time fields left out, as for any answer); Last-Modified is the data's own time.
// A request that holds the page gets 304 before anything is rendered.

/** This build of the pages, set at build time by next.config.ts. */
const BUILD = process.env.SITE_BUILD ?? 'unbuilt';

export interface Shown {
  /** What the page shows that can change between requests (a spot answer, say); null for none. */
  data?: unknown;
  /** The data states of what it shows: the newest `as_of` is Last-Modified. */
  states?: (DataState | null | undefined)[];
  /** Request headers the page follows besides the origin's (a price page's language and choice: Accept-Language, Cookie). */
  vary?: string[];
}

/**
 * Sets a site page's caching headers and validators on its response; true when the request already holds
 * this page and has been answered 304 (getServerSideProps then returns empty props: nothing is rendered).
 */
export function answerCacheable(ctx: Pick<GetServerSidePropsContext, 'req' | 'res' | 'resolvedUrl'>, route: CacheRoute, shown: Shown = {}): boolean {
  const { req, res } = ctx;
  const path = (ctx.resolvedUrl ?? req.url ?? '/').split('?')[0];
  for (const [name, value] of Object.entries(cacheHeaders(route))) res.setHeader(name, value);
  const vary = [linkVary(), ...(shown.vary ?? [])].filter(Boolean).join(', ');
  if (vary) res.setHeader('Vary', vary);
  const etag = etagOf(JSON.stringify([BUILD, path, publicOrigin(req.headers), shown.data ?? null]));
  res.setHeader('ETag', etag);
  const times = (shown.states ?? []).map((s) => (s?.as_of ? Date.parse(s.as_of) : NaN)).filter(Number.isFinite);
  const lastModified = times.length ? Math.floor(Math.max(...times) / 1000) * 1000 : null;
  if (lastModified !== null) res.setHeader('Last-Modified', new Date(lastModified).toUTCString());
  const header = (name: string) => [req.headers[name]].flat()[0];
  if (!notModified(header, etag, lastModified)) return false;
  res.statusCode = 304;
  res.end();
  return true;
}
