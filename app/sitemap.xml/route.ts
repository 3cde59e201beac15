import { linkVary, publicOrigin } from '@/lib/http/public-origin.mjs';
import { cacheHeaders } from '@/lib/http/cache';
import { fxInUse } from '@/lib/prices/spot';
import { METALS } from '@/lib/reference/metals';
import { feeds } from '@/lib/sources/feeds';
import { COMMON_CURRENCIES, marketUnit, pagePath } from '@/site/price-choice';

// GET /sitemap.xml (decisions §27): the canonical price pages of the four metals in the common currencies, each in
// its market's unit, the gram and the troy ounce, and the site's other pages.

/**
 * Every page of the site but the price pages: the home, the developer home, each page of the docs (one per file in
 * pages/docs/; tests/unit/site/sitemap.test.ts keeps the two equal) and the status page.
 */
const OTHER_PAGES = [
  '/',
  '/developers',
  '/docs',
  '/docs/api',
  '/docs/mcp',
  '/docs/widgets',
  '/docs/data',
  '/docs/recipes',
  '/docs/alerts',
  '/docs/changelog',
  '/status',
];

async function sitemap(req: Request): Promise<Response> {
  const origin = publicOrigin(req.headers, req.url);
  const table = fxInUse(await feeds.fx.read(), Date.now()).table;
  const pages = new Set(OTHER_PAGES);
  for (const m of METALS)
    for (const c of COMMON_CURRENCIES.filter((code) => code in table))
      for (const u of [marketUnit(c), 'gram', 'oz'] as const) pages.add(pagePath(m.id, c, u));
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${[...pages]
    .map((p) => `<url><loc>${origin}${p}</loc></url>`)
    .join('\n')}\n</urlset>\n`;
  return new Response(req.method === 'HEAD' ? null : body, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', ...cacheHeaders('docs'), ...(linkVary() ? { Vary: linkVary()! } : {}) },
  });
}

export const GET = sitemap;
export const HEAD = sitemap;
