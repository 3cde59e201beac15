import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { fill } from '@/widgets/format';
import { STRINGS, type Language } from '@/widgets/i18n';
import { App } from '../support/app';
import { framedWidget, launchBrowser, releaseBrowser, reusedPage, watch } from '../support/browser';
import { dataDirWithBars } from '../support/bars';
import { FakeUpstream } from '../support/fake-upstream';
import { HostSite } from '../support/host';
import { marketClockAt } from '../support/market';
import { realChartHandler } from '../support/yahoo';

// The widgets in the reader's language, in Chromium: no English label left, the page's language
// and direction set, Arabic laid out right to left, and the weight budgets kept in every language.

let fake: FakeUpstream;
let app: App;
let browser: Browser;
let host: HostSite;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // A trading Thursday whose previous session has a real imported bar, so the price widget has a change to show.
  const dataDir = await dataDirWithBars(['2026-04-15']);
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')) }, dataDir });
  browser = await launchBrowser();
  host = await HostSite.start();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await host?.close();
  await app?.stop();
  await fake?.close();
});

const LOCALES: Record<Language, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  pt: 'pt-BR',
  tr: 'tr-TR',
  ar: 'ar-EG',
  hi: 'hi-IN',
  zh: 'zh-CN',
  ja: 'ja-JP',
};

/** What the English widgets say; none of it may show in another language. */
const ENGLISH = [
  'Gold price',
  'Gold converter',
  'per troy ounce',
  'per gram',
  'per kilogram',
  'since the previous close',
  'Spot change',
  'since the close',
  'Silver',
  'Gold/silver',
  'updated',
  'ago',
  'Stale',
  'Price unavailable',
  'No price has been received yet',
  'Market closed',
  'Reopens',
  'Amount',
  'Convert',
  'Currency',
  'Weight',
  'Purity',
  'Money',
  'money',
  'gold',
  'troy ounce',
  'troy oz',
  'gram',
  'kilogram',
  'buys',
  'is worth',
  'Metal value',
  'metal value',
  'not a shop',
  'Enter an amount',
  'no conversion',
];
const ENGLISH_CHART = [
  'price chart',
  'Range',
  'updated',
  'ago',
  'needs JavaScript',
  'Chart data unavailable',
  'Samples recorded',
  '1D',
  '5D',
  '1Y',
  '5Y',
];
/** Words Turkish shares with English. */
const SHARED: Partial<Record<Language, string[]>> = { tr: ['gram', 'kilogram'] };

const BUDGETS = { price: { js: 10_000, html: 15_000 }, converter: { js: 15_000, html: 15_000 } };

/** A translated template as a pattern: its own words literally, any value for each placeholder. */
const like = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );

const found = (text: string, phrases: string[]) => phrases.filter((p) => new RegExp(`(?<![\\p{L}\\d])${p}(?![\\p{L}\\d])`, 'u').test(text));

/** Every word a reader meets or a screen reader speaks: title, text (options and noscript included), labels and tooltips. */
function visibleWords(page: Page | Frame): Promise<string> {
  return page.evaluate(() => {
    const main = document.querySelector('main')!.cloneNode(true) as HTMLElement;
    // The attribution link names the service; it is not a label.
    main.querySelectorAll('a').forEach((a) => a.remove());
    const attrs = [...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((el) =>
      ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? ''),
    );
    return [document.title, main.textContent, ...attrs].join('\n');
  });
}

/** One page for the whole file, navigated from widget to widget (tests/support/browser.ts). */
let shared: Awaited<ReturnType<typeof reusedPage>> | undefined;

async function open(name: string, query: string): Promise<{ page: Page; seen: ReturnType<typeof watch>; js: number; html: number }> {
  if (!shared) {
    shared = await reusedPage(browser, { viewport: { width: 420, height: 600 } });
    // Routed requests skip the browser's cache too, so every widget's script is downloaded and weighed.
    await shared.page.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'accept-encoding': 'gzip' } }));
  }
  const { page, seen, requests } = shared;
  await shared.visit(`${app.url}/widgets/${name}?${query}`);
  // By then each script has run and rewritten its lines once.
  await page.waitForLoadState('networkidle');
  const sum = async (type: string) => (await Promise.all(requests.filter((r) => r.type === type).map((r) => r.bytes()))).reduce((a, b) => a + b, 0);
  return { page, seen, js: await sum('script'), html: await sum('document') };
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not laid out`);
  return b;
}

describe('price and converter widgets in every language', () => {
  for (const [lang, locale] of Object.entries(LOCALES) as [Language, string][]) {
    const t = STRINGS[lang];
    const rtl = lang === 'ar';

    it(`${locale}: price in ${lang}, lang and dir set, within budget`, async () => {
      const { page, seen, js, html } = await open('price', `locale=${locale}&silver=1&ratio=1&currency=EUR`);
      const words = await visibleWords(page);
      if (lang === 'en') expect(found(words, ENGLISH).length).toBeGreaterThan(5);
      else expect(found(words, ENGLISH).filter((w) => !SHARED[lang]?.includes(w))).toEqual([]);
      expect(await page.getAttribute('main', 'aria-label')).toBe(t.priceTitle);
      expect(await page.textContent('.h span')).toBe(`${t.gold} · ${t.perOz}`);
      expect(await page.textContent('[data-f="change"]')).toMatch(like(t.sinceClose));
      expect(await page.getAttribute('[data-f="change"]', 'title')).toBe(fill(t.changeTitle, { date: '2026-04-15' }));
      expect(await page.textContent('[data-f="fresh"]')).toMatch(like(t.updated));
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect(await page.getAttribute('html', 'dir')).toBe(rtl ? 'rtl' : 'ltr');
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).direction)).toBe(rtl ? 'rtl' : 'ltr');
      expect(js).toBeGreaterThan(0);
      expect(js).toBeLessThanOrEqual(BUDGETS.price.js);
      expect(html).toBeLessThanOrEqual(BUDGETS.price.html);
      expect(seen.errors).toEqual([]);
      expect(seen.failed).toEqual([]);
    });

    it(`${locale}: converter in ${lang}, lang and dir set, within budget`, async () => {
      const { page, seen, js, html } = await open('converter', `locale=${locale}&currency=EUR&unit=gram`);
      await page.fill('#gw-amount', '500');
      const words = await visibleWords(page);
      if (lang === 'en') expect(found(words, ENGLISH).length).toBeGreaterThan(5);
      else expect(found(words, ENGLISH).filter((w) => !SHARED[lang]?.includes(w))).toEqual([]);
      expect(await page.getAttribute('main', 'aria-label')).toBe(t.converterTitle);
      expect(await page.textContent('label[for="gw-amount"]')).toBe(t.amount);
      expect(await page.textContent('button[type=submit]')).toBe(t.submit);
      expect(await page.$$eval('#gw-unit option', (os) => os.map((o) => o.textContent))).toEqual([
        t.unitOz,
        t.unitGram,
        t.unitKg,
        t.unitTola,
        t.unitTael,
        t.unitBaht,
        t.unitChi,
        t.unitLuong,
        t.unitDon,
        t.unitPavan,
        t.unitDwt,
        t.unitGrain,
      ]);
      // The result line as the script writes it after typing, in the same words as the server's: the metal value.
      await expect.poll(() => page.textContent('output')).toMatch(like(t.meltIs));
      expect(await page.textContent('.note')).toBe(t.meltNote);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect(await page.getAttribute('html', 'dir')).toBe(rtl ? 'rtl' : 'ltr');
      expect(js).toBeGreaterThan(0);
      expect(js).toBeLessThanOrEqual(BUDGETS.converter.js);
      expect(html).toBeLessThanOrEqual(BUDGETS.converter.html);
      expect(seen.errors).toEqual([]);
      expect(seen.failed).toEqual([]);
    });
  }

  it('a locale without translations: English words, numbers in that locale', async () => {
    const { page } = await open('price', 'locale=nl-NL&currency=EUR');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('.h span')).toBe('Gold · per troy ounce');
    const api = await app.json('/api/v1/spot?currency=EUR&compact=1');
    const dutch = await page.evaluate((v) => new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR' }).format(v), api.body.xau.price);
    expect(await page.textContent('[data-f="price"]')).toBe(dutch);
  });
});

describe('Arabic reads right to left', () => {
  // Each check holds the other way round in German, so a layout that ignores the direction fails here.
  for (const [locale, rtl] of [
    ['ar-EG', true],
    ['de-DE', false],
  ] as const) {
    it(`${locale}: rows start on the ${rtl ? 'right' : 'left'}`, async () => {
      const right = (a: { x: number; width: number }, b: { x: number; width: number }) => (rtl ? a.x > b.x + b.width - 1 : a.x + a.width < b.x + 1);

      const price = (await open('price', `locale=${locale}&silver=1&ratio=1`)).page;
      // Freshness line first, attribution last; silver leads its row; the price and the change sit at the start edge.
      expect(right(await box(price, '[data-f="fresh"]'), await box(price, '.foot a'))).toBe(true);
      expect(right(await box(price, '[data-f="silver"]'), await box(price, '[data-f="ratio"]'))).toBe(true);
      const [changeBox, mainBox] = [await box(price, '[data-f="change"]'), await box(price, 'main')];
      expect(rtl ? mainBox.x + mainBox.width - (changeBox.x + changeBox.width) : changeBox.x - mainBox.x).toBeLessThan(40);
      const edge = await price.evaluate(() => {
        const el = document.querySelector('[data-f="price"]')!;
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        const block = el.getBoundingClientRect();
        return { startGap: text.left - block.left, endGap: block.right - text.right };
      });
      expect(rtl ? edge.endGap : edge.startGap).toBeLessThanOrEqual(1);
      expect(rtl ? edge.startGap : edge.endGap).toBeGreaterThan(20);

      const converter = (await open('converter', `locale=${locale}`)).page;
      expect(right(await box(converter, '#gw-amount'), await box(converter, '#gw-direction'))).toBe(true);
      expect(await converter.evaluate(() => getComputedStyle(document.querySelector('#gw-amount')!).direction)).toBe(rtl ? 'rtl' : 'ltr');

      const chart = (await open('chart', `locale=${locale}&range=3mo`)).page;
      expect(right(await box(chart, 'button[data-range="1d"]'), await box(chart, 'button[data-range="5d"]'))).toBe(true);
    });
  }
});

describe('chart widget in German and Arabic', () => {
  for (const [lang, locale] of [
    ['de', 'de-DE'],
    ['ar', 'ar-EG'],
  ] as const) {
    it(`${locale}: range buttons, labels and the freshness line in ${lang}`, async () => {
      const t = STRINGS[lang];
      // Framed, as a publisher's page shows it: the headless shell's resting pointer stays off the chart (tests/support/browser.ts).
      const page = await browser.newPage({ viewport: { width: 420, height: 600 } });
      const seen = watch(page);
      const frame = await framedWidget(page, host, `${app.url}/widgets/chart?locale=${locale}&range=3mo`, { width: 400, height: 480 });
      await frame.waitForSelector('.frame path[d^="M"]');
      // The first frame's high is written in the locale's numbers.
      const bars: number[] = (await app.json('/api/v1/chart?symbol=xau&range=3mo&interval=1d')).body.points.map((p: { c: number }) => p.c);
      const high = await frame.evaluate(({ locale, v }) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(v), {
        locale,
        v: Math.max(...bars),
      });
      expect(await frame.textContent('[data-f="hi"]')).toBe(high);
      expect(await frame.$$eval('button[data-range]', (bs) => bs.map((b) => b.textContent))).toEqual([
        t.r1d,
        t.r5d,
        t.r1mo,
        t.r3mo,
        t.r1y,
        t.r5y,
        t.rMax,
      ]);
      expect(await frame.getAttribute('main', 'aria-label')).toBe(fill(t.chartTitle, { name: t.gold }));
      expect(await frame.getAttribute('.ranges', 'aria-label')).toBe(t.range);
      expect(await frame.textContent('noscript')).toContain(t.chartNoscript);
      await expect.poll(() => frame.textContent('[data-f="fresh"]')).toMatch(like(t.updated));
      expect(found(await visibleWords(frame), ENGLISH_CHART)).toEqual([]);
      expect(await frame.getAttribute('html', 'lang')).toBe(locale);
      expect(await frame.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }
});

describe('converter purities', () => {
  it('offers 24k to 9k and gold’s finenesses, and converts at karat ÷ 24 or the fineness of the served spot price', async () => {
    const { page } = await open('converter', 'currency=USD&unit=oz&amount=1&direction=gold-to-money&locale=en-US');
    expect(await page.$$eval('#gw-purity option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      '24k',
      '22k',
      '21k',
      '18k',
      '14k',
      '10k',
      '9k',
      '999.9',
      '999',
      '995',
      '965',
      '916',
      '750',
      '585',
      '375',
    ]);
    const spot = (await app.json('/api/v1/spot?compact=1')).body.spot_usd_oz;
    for (const [purity, share, words] of [
      ['21k', 21 / 24, '21k gold'],
      ['9k', 9 / 24, '9k gold'],
      ['995', 0.995, '995 gold'],
    ] as const) {
      await page.selectOption('#gw-purity', purity);
      await expect.poll(() => page.textContent('output')).toContain(`of ${words}: `);
      const shown = Number((await page.textContent('output'))!.match(/: \$([\d.,]+)$/)![1].replace(/,/g, ''));
      expect(Math.abs(shown - spot * share)).toBeLessThanOrEqual(0.005);
    }
  });
});
