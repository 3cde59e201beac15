import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { App } from '../support/app';
import { launchBrowser, watch } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';
import { realChartHandler } from '../support/yahoo';

// The landing page's chart when history cannot be had, and the icon browsers ask for by name.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('/favicon.ico', () => {
  let fake: FakeUpstream;
  let app: App;
  beforeAll(async () => {
    fake = await FakeUpstream.start();
    app = await App.start({ env: fake.env() });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it('is a real icon: ICO header, PNG images, decoded by Chromium', async () => {
    const res = await app.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);
    const ico = Buffer.from(await res.arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const size = ico.readUInt32LE(6 + 16 * i + 8);
      const offset = ico.readUInt32LE(6 + 16 * i + 12);
      expect(offset + size).toBeLessThanOrEqual(ico.length);
      expect(ico.subarray(offset, offset + 8).toString('hex')).toBe('89504e470d0a1a0a');
    }
    // What a browser opening /llms.txt does: fetch the icon and draw it.
    const page = await browser.newPage();
    const seen = watch(page);
    await page.goto(`${app.url}/llms.txt`);
    const width = await page.evaluate(async () => {
      const img = new Image();
      img.src = '/favicon.ico';
      await img.decode();
      return img.naturalWidth;
    });
    expect(width).toBeGreaterThanOrEqual(16);
    expect(seen.failed).toEqual([]);
    await page.close();
  });
});

describe('landing chart', () => {
  it('says "History unavailable" with the reason when the history upstream fails and nothing is cached', async () => {
    const fake = await FakeUpstream.start();
    fake.set('chart', { mode: 'status', status: 500 });
    const app = await App.start({ env: fake.env() });
    try {
      const history = await app.json('/api/v1/history');
      expect(history.status).toBe(503);
      const page = await browser.newPage();
      await page.goto(app.url);
      const panel = page.locator('figure [role="status"]');
      // The panel loads its data once it is about to be seen, after the page has painted.
      await expect.poll(() => panel.count(), { timeout: 15_000 }).toBe(1);
      expect(await panel.textContent()).toBe(`History unavailable${history.body.error}`);
      expect(await page.locator('figure canvas').count()).toBe(0);
      await page.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  });

  it('draws the daily closes when history is there', async () => {
    const fake = await FakeUpstream.start();
    fake.onChart(realChartHandler());
    // The 5-year body takes a loaded machine longer than the tests' usual upstream timeout.
    const app = await App.start({ env: { ...fake.env(), UPSTREAM_TIMEOUT_MS: '10000' } });
    try {
      const page = await browser.newPage();
      await page.goto(app.url);
      await page.waitForSelector('figure canvas', { timeout: 60_000 });
      expect(await page.locator('figure [role="status"]').count()).toBe(0);
      await page.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  });
});
