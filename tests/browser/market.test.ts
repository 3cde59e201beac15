import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';
import { marketClockAt, WEEKEND_DAY } from '../support/market';
import { fill } from '@/widgets/format';
import { STRINGS } from '@/widgets/i18n';

// On a weekend the price widget says the market is closed, with the reopening time in the reader's
// own locale and time zone (the server renders UTC; the script redraws for the reader).

let fake: FakeUpstream;
let app: App;
let browser: Browser;
const shift = marketClockAt(WEEKEND_DAY);

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: { ...fake.env(), ...shift } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

it('the price widget shows "Market closed" and the reopening time in the reader\'s locale and zone', async () => {
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  await page.goto(`${app.url}/widgets/price?locale=de-DE`);
  const line = page.locator('[data-f="market"]');
  await expect.poll(() => line.isVisible()).toBe(true);
  // Sunday 18:00 New York time of the shifted calendar, shifted back to the real clock, as a reader in Berlin sees it.
  const reopen = Date.parse('2026-11-22T18:00:00-05:00') - Number(shift.MARKET_CLOCK_OFFSET_S) * 1000;
  const expected = new Intl.DateTimeFormat('de-DE', {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Europe/Berlin',
    timeZoneName: 'short',
  }).format(reopen);
  // In the reader's language: the German words of the translation table.
  await expect.poll(() => line.textContent()).toBe(`${STRINGS.de.marketClosed} · ${fill(STRINGS.de.reopens, { time: expected })}`);
  await context.close();
});
