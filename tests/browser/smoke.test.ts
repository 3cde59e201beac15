import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser, watch } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';
import { realChartHandler } from '../support/yahoo';

let fake: FakeUpstream;
let app: App;
let browser: Browser;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  // The recorded daily series: the landing's chart panel asks for it once it is about to be seen.
  fake.onChart(realChartHandler());
  app = await App.start({ env: { ...fake.env(), UPSTREAM_TIMEOUT_MS: '10000' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

it('the developer home renders in Chromium without console errors', async () => {
  const page = await browser.newPage();
  const seen = watch(page);
  const res = await page.goto(app.url + '/developers');
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1').textContent()).resolves.toMatch(/gold/i);
  // Everything the page asks for, the chart's series and library included, has answered.
  await page.waitForLoadState('networkidle');
  expect(seen.errors).toEqual([]);
  expect(seen.failed).toEqual([]);
  await page.close();
});
