import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { UPSTREAMS } from '@/lib/sources/upstreams';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser, seriousViolations, watch } from '../support/browser';
import { sleep, waitFor } from '../support/expect';
import { FakeUpstream } from '../support/fake-upstream';

// The /status page in Chromium: every source named with its state in words and an availability bar, no framework
// script, accessible in light and dark, reachable from the footer of every page and from /docs/data.

let fake: FakeUpstream;
let app: App;
let browser: Browser;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '1' } });
  browser = await launchBrowser();
  // Some sources answered, gold-api.com failed last: the page shows ok, degraded or down and unused side by side.
  await app.get('/api/v1/spot').then((r) => r.text());
  fake.set('gold', { mode: 'status', status: 502, text: '' });
  await sleep(1200);
  await app.get('/api/v1/spot').then((r) => r.text());
  await waitFor(
    async () => (await app.json('/api/v1/status')).body.upstreams.find((u: { id: string }) => u.id === 'gold-api').last_failure?.status,
    (status) => status === 502,
  );
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

describe('/status', () => {
  it('names every source with its state and an availability bar, loads no script, and is axe clean in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ colorScheme: scheme });
      const seen = watch(page);
      const scripts: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') scripts.push(req.url());
      });
      const res = await page.goto(`${app.url}/status`);
      expect(res?.status()).toBe(200);
      await page.waitForLoadState('networkidle');
      expect(scripts, scheme).toEqual([]);
      expect(seen.errors, scheme).toEqual([]);
      expect(seen.failed, scheme).toEqual([]);
      const rows = page.locator('#sources ~ .table-scroll tbody tr');
      expect(await rows.count()).toBe(UPSTREAMS.length);
      for (const u of UPSTREAMS) {
        const row = rows.filter({ has: page.locator('th', { hasText: u.name }) });
        expect(await row.count(), u.name).toBe(1);
        expect(await row.locator('.avail-bar').count(), u.name).toBe(2);
      }
      const gold = rows.filter({ has: page.locator('th', { hasText: 'gold-api.com' }) });
      expect(await gold.locator('.state').innerText()).toMatch(/^(degraded|down)$/);
      expect(await gold.innerText()).toContain('http (HTTP 502)');
      expect(
        await rows
          .filter({ has: page.locator('th', { hasText: 'swissquote.com' }) })
          .locator('.state')
          .innerText(),
      ).toBe('ok');
      expect(
        await rows
          .filter({ has: page.locator('th', { hasText: 'World Bank' }) })
          .locator('.state')
          .innerText(),
      ).toBe('unused');
      // Every rule in light; the dark scheme changes colours only, so the colour rule there.
      expect(await seriousViolations(page, scheme === 'dark' ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {}), scheme).toEqual([]);
      await page.close();
    }
  });

  it('the footer of every page links to it, and so does /docs/data', async () => {
    const page = await browser.newPage();
    for (const path of ['/', '/docs', '/docs/data']) {
      await page.goto(app.url + path);
      expect(await page.locator('footer a[href="/status"]').count(), path).toBe(1);
    }
    expect(await page.locator('main a[href="/status"]').count()).toBeGreaterThanOrEqual(1);
    await page.locator('footer a[href="/status"]').click();
    await page.waitForURL(`${app.url}/status`);
    expect(await page.locator('h1').innerText()).toBe('Status');
    await page.close();
  });
});
