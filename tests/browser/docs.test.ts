import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { alertPaths, OPERATIONS, STREAM_OPERATION } from '@/lib/docs/openapi';
import { recipes } from '@/site/recipes';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser, reusedPage, seriousViolations, watch } from '../support/browser';
import { pagesInOneRenderer } from '../support/renderer-pages';
import { FakeUpstream } from '../support/fake-upstream';
import { marketClockAt } from '../support/market';
import { HostSite } from '../support/host';
import { realChartHandler } from '../support/yahoo';

// The documentation site as a newcomer meets it, in Chromium.

const PAGES = ['/developers', '/docs', '/docs/api', '/docs/mcp', '/docs/widgets', '/docs/data', '/docs/changelog', '/docs/recipes'];

/** The scripts a page loads, by path, in the order it asks for them. */
function scriptsOf(page: import('playwright-core').Page): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') seen.push(new URL(req.url()).pathname);
  });
  return seen;
}

/** No framework code: the landing and the widget builder load their own small script, every other page none. */
function expectOwnScripts(path: string, scripts: string[]) {
  expect(
    scripts.filter((s) => s.startsWith('/_next/')),
    path,
  ).toEqual([]);
  const own = path === '/developers' ? /^\/w\/landing\./ : path === '/docs/widgets' ? /^\/w\/builder\./ : null;
  if (own)
    expect(
      scripts.filter((s) => own.test(s)),
      path,
    ).toHaveLength(1);
  else expect(scripts, path).toEqual([]);
  // Every script is a content-hashed file of our own, or (for the widget examples) embed.js at the address publishers use.
  for (const s of scripts)
    expect(s, path).toMatch(path === '/docs/widgets' ? /^(\/w\/[\w-]+\.[A-Z0-9]+\.js|\/embed\.js)$/ : /^\/w\/[\w-]+\.[A-Z0-9]+\.js$/);
}

let fake: FakeUpstream;
let app: App;
let host: HostSite;
let browser: Browser;
const newPage = pagesInOneRenderer(() => browser);

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // On the calendar of Thursday 16 April 2026, the last day of the recorded futures: the landing's 3-month window has
  // closes to draw, and the market is open, so the sampler records.
  app = await App.start({
    env: { ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')), SAMPLER: 'on', SAMPLE_INTERVAL_S: '2', CACHE_TTL_S: '1' },
  });
  host = await HostSite.start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await host?.close();
  await app?.stop();
  await fake?.close();
});

describe('every docs page', () => {
  // One page for every address and scheme (tests/support/browser.ts).
  let shared: Awaited<ReturnType<typeof reusedPage>>;
  beforeAll(async () => {
    shared = await reusedPage(browser);
  });
  afterAll(() => shared?.page.close());
  for (const path of PAGES) {
    it(`${path}: renders with no console errors, no failed requests, no serious accessibility violations, no framework code`, async () => {
      const { page, seen, requests } = shared;
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const res = await shared.visit(app.url + path);
        expect(res?.status()).toBe(200);
        await page.waitForLoadState('networkidle');
        expect(await page.locator('h1').count()).toBe(1);
        expect(seen.errors, `${path} ${scheme}`).toEqual([]);
        expect(seen.failed, `${path} ${scheme}`).toEqual([]);
        expectOwnScripts(
          path,
          requests.filter((r) => r.type === 'script').map((r) => new URL(r.url).pathname),
        );
        // The dark scheme changes colours only (custom properties in site/globals.css), so every rule
        // runs in the light scheme and the colour rule in both.
        const only = scheme === 'dark' ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {};
        const violations = await seriousViolations(page, only);
        expect(violations, `${path} ${scheme}`).toEqual([]);
      }
    });
  }

  it('is readable on a phone: no horizontal scroll', async () => {
    const page = await newPage({ viewport: { width: 375, height: 740 } });
    for (const path of PAGES) {
      await page.goto(app.url + path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.close();
  });

  it('internal links all resolve', async () => {
    const page = await newPage();
    const links = new Set<string>();
    for (const path of PAGES) {
      await page.goto(app.url + path);
      for (const href of await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href))) {
        const u = new URL(href);
        if (u.origin === app.url) links.add(u.pathname + u.search);
      }
    }
    await page.close();
    expect(links.size).toBeGreaterThan(8);
    for (const link of links) {
      const res = await app.get(link);
      await res.arrayBuffer();
      expect(res.status, link).toBeLessThan(400);
    }
  });
});

describe('what the site ships', () => {
  it('the 404 page loads no framework code either (every other page is checked where it renders)', async () => {
    const page = await newPage();
    const scripts = scriptsOf(page);
    await page.goto(app.url + '/no-such-page');
    await page.waitForLoadState('networkidle');
    expectOwnScripts('/no-such-page', scripts);
    await page.close();
  });

  it('the landing page asks for the chart library and the series only when the chart is about to be seen', async () => {
    const page = await newPage({ viewport: { width: 375, height: 300 } });
    const scripts = scriptsOf(page);
    const api: string[] = [];
    // The price stream (opened at once, to keep the price live) is not the chart's.
    page.on('request', (req) => req.url().includes('/api/') && !req.url().includes('/api/v1/stream') && api.push(new URL(req.url()).pathname));
    await page.goto(`${app.url}/developers`);
    await page.waitForLoadState('networkidle');
    // The chart starts more than its 300 px look-ahead below the fold on this screen.
    const below = await page.evaluate(() => document.querySelector('figure')!.getBoundingClientRect().top - innerHeight);
    expect(below).toBeGreaterThan(300);
    expect(await page.textContent('.price')).toMatch(/^\$[\d,]+\.\d{2}$/);
    const before = [...scripts];
    expect(api).toEqual([]);
    await page.locator('figure').scrollIntoViewIfNeeded();
    await page.waitForSelector('figure canvas', { timeout: 30_000 });
    expect(api[0]).toBe('/api/v1/intraday');
    expect(scripts.length).toBeGreaterThan(before.length);
    await page.close();
  });
});

describe('the widget examples', () => {
  it('are embedded as a publisher embeds them: no frame until scrolled near, then three live widgets', async () => {
    const page = await newPage({ viewport: { width: 375, height: 700 } });
    const seen = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await page.goto(`${app.url}/docs/widgets`);
    await page.waitForLoadState('networkidle');
    expect(await page.$$('[data-gold-widget-slot]')).toHaveLength(3);
    expect(requests.filter((u) => u.startsWith('/widgets/chart') || u.startsWith('/widgets/converter'))).toEqual([]);
    await page.locator('#examples').scrollIntoViewIfNeeded();
    await page.locator('[data-gold-widget="chart"]').scrollIntoViewIfNeeded();
    for (const [path, ready] of [
      ['/widgets/price?silver=1&ratio=1', '[data-f="price"]'],
      ['/widgets/converter?currency=EUR&unit=gram', 'output'],
      ['/widgets/chart?range=1y', '.frame path[d^="M"]'],
    ]) {
      const handle = await page.waitForSelector(`iframe[src*="${path}"]`);
      const frame = (await handle.contentFrame())!;
      await frame.waitForSelector(ready);
    }
    expect(await page.$$('[data-gold-widget-slot]')).toHaveLength(0);
    expect(seen.errors).toEqual([]);
    expect(seen.failed).toEqual([]);
    await page.close();
  });
});

describe('from the landing page to working code', () => {
  it('the API reference covers every endpoint of the OpenAPI document, with curl', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/docs/api`);
    for (const op of OPERATIONS) {
      expect(await page.locator(`#${op.operationId}`).count(), op.path).toBe(1);
      const curl = await page.locator(`section[aria-labelledby="${op.operationId}"] pre`).first().textContent();
      expect(curl).toContain(`curl '${app.url}${op.path}`);
      // The documented curl works as written.
      const url = curl!.match(/curl '([^']+)'/)![1];
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
    }
    await page.close();
  });

  it('the builder snippet, pasted into a blank page on another origin, shows the widget', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/docs/widgets`);
    await page.selectOption('#b-currency', 'GBP');
    await page.selectOption('#b-theme', 'dark');
    const snippet = await page.inputValue('#b-script');
    expect(snippet).toContain('data-currency="GBP"');
    await page.close();

    const blank = await newPage();
    const seen = watch(blank);
    await blank.goto(host.page(snippet));
    const frame = await (await blank.waitForSelector('iframe')).contentFrame();
    await frame!.waitForSelector('[data-f="price"]');
    await expect.poll(() => frame!.textContent('[data-f="price"]')).toMatch(/£[\d,]+\.\d{2}/);
    expect(seen.errors).toEqual([]);
    await blank.close();
  });

  it('every chart option the builder offers is one the chart widget shows selected', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/docs/widgets`);
    await page.selectOption('#b-kind', 'chart');
    const options = async (sel: string) => page.locator(`${sel} option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const ranges = await options('#b-range');
    const symbols = await options('#b-symbol');
    expect(ranges.length).toBeGreaterThan(3);
    expect(symbols.length).toBeGreaterThan(3);
    for (const range of ranges) {
      await page.selectOption('#b-range', range);
      const src = (await page.inputValue('#b-iframe')).match(/src="([^"]+)"/)![1].replaceAll('&amp;', '&');
      const html = await (await fetch(src)).text();
      expect(html, range).toContain(`data-range="${range}" aria-pressed="true"`);
    }
    for (const symbol of symbols) {
      await page.selectOption('#b-symbol', symbol);
      const src = (await page.inputValue('#b-iframe')).match(/src="([^"]+)"/)![1].replaceAll('&amp;', '&');
      const html = await (await fetch(src)).text();
      // The widget draws the asset the builder named: its series addresses are that symbol's.
      expect(html, symbol).toContain(`/api/v1/chart?symbol=${symbol}&range=`);
    }
    await page.close();
  });

  it('the recipes page shows each recipe with this server’s URLs, and each answers 200 from it', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/docs/recipes`);
    const code = (await page.locator('main pre').allTextContents()).join('\n');
    for (const recipe of recipes(app.url)) {
      expect(await page.locator(`#${recipe.id}`).count(), recipe.id).toBe(1);
      for (const call of recipe.calls) {
        expect(code, call.path).toContain(app.url + call.path);
        const res = await app.get(call.path);
        await res.arrayBuffer();
        expect(res.status, call.path).toBe(200);
      }
    }
    await page.close();
  });

  it('the MCP page gives a configuration that points at this server', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/docs/mcp`);
    expect(await page.textContent('main')).toContain(`${app.url}/mcp`);
    await page.close();
  });
});

describe('llms.txt', () => {
  it('lists every endpoint, the MCP endpoint and the widgets, and its links resolve', async () => {
    const res = await app.get('/llms.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text.startsWith('# Gold API\n\n> ')).toBe(true);
    for (const op of OPERATIONS) expect(text).toContain(`${app.url}${op.path}`);
    expect(text).toContain(`${app.url}/mcp`);
    expect(text).toContain('/widgets/price');
    const links = [...text.matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThanOrEqual(8);
    for (const link of links) {
      const r = await fetch(link);
      await r.arrayBuffer();
      expect(r.status, link).toBeLessThan(400);
    }
  });

  it('/api/openapi.json is served with this origin as its server', async () => {
    const { status, body } = await app.json('/api/openapi.json');
    expect(status).toBe(200);
    expect(body.servers).toEqual([{ url: app.url }]);
    expect(Object.keys(body.paths)).toEqual([...OPERATIONS.map((o) => o.path), STREAM_OPERATION.path, ...Object.keys(alertPaths())]);
  });
});
