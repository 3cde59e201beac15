import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as sitemap from '@/app/sitemap.xml/route';

// /sitemap.xml names every page a crawler should find: the docs pages too (decisions §33), each of them, so a docs
// page added later is not left out.

const ROOT = path.resolve(__dirname, '../../..');
const docsPages = fs
  .readdirSync(path.join(ROOT, 'pages/docs'))
  .filter((f) => f.endsWith('.tsx'))
  .map((f) => (f === 'index.tsx' ? '/docs' : `/docs/${f.replace(/\.tsx$/, '')}`));

// No FX upstream: the sitemap's currencies come from the bundled table then, and nothing is reached.
beforeAll(() => vi.stubEnv('FX_API_URL', 'http://127.0.0.1:9'));
afterAll(() => vi.unstubAllEnvs());

describe('/sitemap.xml', () => {
  it('lists every docs page, the developer home and the status page', async () => {
    expect(docsPages.length).toBeGreaterThanOrEqual(8);
    const res = await sitemap.GET(new Request('http://gold.test/sitemap.xml'));
    expect(res.status).toBe(200);
    const locs = [...(await res.text()).matchAll(/<loc>http:\/\/gold\.test([^<]*)<\/loc>/g)].map((m) => m[1]);
    for (const page of [...docsPages, '/', '/developers', '/status']) expect(locs, page).toContain(page);
    expect(locs).toContain('/gold/eur/gram');
  });
});
