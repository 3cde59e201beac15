import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { App } from '../support/app';
import { launchBrowser, watch } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';

let fake: FakeUpstream;
let app: App;
let browser: Browser;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: fake.env() });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.close();
});

it('the landing page renders in Chromium without console errors', async () => {
  const page = await browser.newPage();
  const seen = watch(page);
  const res = await page.goto(app.url + '/');
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1').textContent()).resolves.toMatch(/gold/i);
  expect(seen.errors).toEqual([]);
  expect(seen.failed).toEqual([]);
  await page.close();
});
