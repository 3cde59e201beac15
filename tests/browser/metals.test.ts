import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fill } from '@/widgets/format';
import { STRINGS } from '@/widgets/i18n';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser, watch } from '../support/browser';
import { fixture, FakeUpstream, PRIMARY_FIXTURE } from '../support/fake-upstream';

// The converter in tola with Indian rupees, and the price widget for platinum in two languages, as a
// reader sees them in real Chromium: figures computed here from the API's own answer and the tola's grams.

let fake: FakeUpstream;
let app: App;
let browser: Browser;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: fake.env() });
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

const TOLA_G = 11.6638038;
const TROY_OZ_G = 31.1034768;

async function open(path: string): Promise<{ page: Page; seen: ReturnType<typeof watch> }> {
  const page = await browser.newPage({ viewport: { width: 420, height: 700 } });
  const seen = watch(page);
  await page.goto(`${app.url}${path}`);
  return { page, seen };
}

describe('converter in tola with INR', () => {
  it('server render and the live script agree with the tola price computed from its grams', async () => {
    const { page, seen } = await open('/widgets/converter?currency=INR&unit=tola&amount=2&direction=gold-to-money&karat=22&locale=en-IN');
    const spot = (await app.json('/api/v1/spot?currency=INR&compact=1')).body;
    const perTola = ((spot.spot_usd_oz * spot.fx_rate) / TROY_OZ_G) * TOLA_G;
    const rupees = (v: number) =>
      page.evaluate(
        (v) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v),
        v,
      );
    await expect
      .poll(() => page.textContent('[data-f="result"]'))
      .toBe(`Metal value of 2.0000 tola of 22k gold: ${await rupees(2 * perTola * (22 / 24))}`);
    expect(await page.textContent('[data-f="rate"]')).toBe(`1 tola of 22k = ${await rupees(perTola * (22 / 24))}`);
    expect(await page.$eval('#gw-unit', (s) => (s as HTMLSelectElement).value)).toBe('tola');

    // Switching to platinum in the page: no karat but platinum's finenesses (pure first), the platinum price per tola.
    await page.selectOption('#gw-metal', 'platinum');
    const ptPerTola = ((spot.platinum_usd_oz * spot.fx_rate) / TROY_OZ_G) * TOLA_G;
    await expect.poll(() => page.textContent('[data-f="result"]')).toBe(`Metal value of 2.0000 tola of Platinum: ${await rupees(2 * ptPerTola)}`);
    expect(await page.$$eval('#gw-purity option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['1000', '999.5', '950']);
    await page.selectOption('#gw-purity', '950');
    await expect
      .poll(() => page.textContent('[data-f="result"]'))
      .toBe(`Metal value of 2.0000 tola of Platinum (950): ${await rupees(2 * ptPerTola * 0.95)}`);
    expect(await page.textContent('#gw-title')).toBe('Platinum converter');
    expect(spot.platinum_usd_oz).toBe(fixture(PRIMARY_FIXTURE.XPT).price);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('price widget for platinum', () => {
  for (const locale of ['de-DE', 'ja-JP']) {
    it(`in ${locale}: the platinum price in its words, no gold day change beside it`, async () => {
      const { page, seen } = await open(`/widgets/price?metal=platinum&currency=EUR&unit=gram&locale=${locale}`);
      const spot = (await app.json('/api/v1/spot?currency=EUR&compact=1')).body;
      const perGram = (spot.platinum_usd_oz * spot.fx_rate) / TROY_OZ_G;
      const shown = await page.evaluate(
        ({ v, locale }) =>
          new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(v),
        { v: Math.round(perGram * 1e4) / 1e4, locale },
      );
      await expect.poll(() => page.textContent('[data-f="price"]')).toBe(shown);
      const t = STRINGS[locale.slice(0, 2) as 'de' | 'ja'];
      expect(await page.textContent('.h span')).toBe(`${t.platinum} · ${t.perGram}`);
      expect(await page.title()).toBe(fill(t.metalPriceTitle, { name: t.platinum }));
      // Gold's day change (from the gold futures history) is never shown beside platinum.
      expect(await page.isHidden('[data-f="change"]')).toBe(true);
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }
});
