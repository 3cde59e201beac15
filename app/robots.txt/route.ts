import { linkVary, publicOrigin } from '@/lib/http/public-origin.mjs';
import { cacheHeaders } from '@/lib/http/cache';

// GET /robots.txt: everything may be crawled but the picker (it only saves a choice and redirects); the sitemap
// lists the price pages.

function robots(req: Request): Response {
  const body = `User-agent: *\nAllow: /\nDisallow: /pick\n\nSitemap: ${publicOrigin(req.headers, req.url)}/sitemap.xml\n`;
  return new Response(req.method === 'HEAD' ? null : body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...cacheHeaders('docs'), ...(linkVary() ? { Vary: linkVary()! } : {}) },
  });
}

export const GET = robots;
export const HEAD = robots;
