import crypto from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { daysBefore } from '@/lib/calendar/dates';
import { STRINGS } from '@/widgets/i18n';
import { App } from '../support/app';
import { dataDirWithBars } from '../support/bars';
import { launchBrowser, releaseBrowser, seriousViolations, watch } from '../support/browser';
import { pagesInOneRenderer } from '../support/renderer-pages';
import { FakeUpstream, fixture, PRIMARY_FIXTURE } from '../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../support/market';
import { realChartHandler } from '../support/yahoo';

// The price pages in real Chromium (decisions §27): a new upstream price shows without a reload, through one stream
// per page, and again after Back; what your metal is worth (§31) answers as you type and when sent; `?date=` shows that
// day's value; the German and Arabic pages (right to left) render without console errors, and axe finds no serious
// violation; the chart mounts when scrolled to and draws each range's series (its details: price-chart.test.ts).

const gold = fixture(PRIMARY_FIXTURE.XAU);
const CRON_SECRET = 'price-pages-cron';
/** Grams in a troy ounce (decisions §3): the test's own arithmetic of a price per gram. */
const GRAMS_PER_OZ = 31.1034768;
const roundTo = (n: number, dp: number) => Math.round(n * 10 ** dp) / 10 ** dp;
/** The digits of a price as a page writes it ("€1,234.5678" → "1234.5678"). */
const digits = (text: string | null) => (text ?? '').replace(/[^\d.]/g, '');

let fake: FakeUpstream;
let app: App;
let browser: Browser;
const newPage = pagesInOneRenderer(() => browser);
beforeAll(async () => {
  fake = await FakeUpstream.start();
  // gold-api.com alone, so the price shown is the one the fake serves.
  fake.set('quotes', { mode: 'refuse' });
  // COMEX futures for the chart's daily ranges (the store's one day of spot bars covers none of them).
  fake.onChart(realChartHandler());
  const dataDir = await dataDirWithBars(['2026-04-15']);
  // Alerts may be created for a subscription on this machine (no push service is reachable from the tests).
  // The 2-minute series is recorded on demand through the cron route, a bucket a second (the chart's 1D).
  app = await App.start({
    env: {
      ...fake.env(),
      ...marketClockAt(OPEN_DAY),
      CACHE_TTL_S: '1',
      ALERT_TARGETS_ALLOW: '127.0.0.1',
      CRON_SECRET,
      SAMPLE_INTERVAL_S: '1',
    },
    dataDir,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

let step = 0;
/** A new gold price at the fake upstream (each call another one), with its own time. */
function newPrice(): number {
  const price = Math.round((gold.price + ++step * 1.25) * 100) / 100;
  const updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString().replace('.000Z', 'Z');
  fake.set('gold', { mode: 'json', body: { ...gold, price, updatedAt } });
  return price;
}

/** The streams a page opens (EventSource requests), by URL. */
function streams(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/stream') seen.push(r.url());
  });
  return seen;
}

const value = (page: Page, name: string) => page.getAttribute(`[data-f="${name}"]`, 'data-v').then(Number);

describe('live', () => {
  it('a price pushed upstream updates the price, the four metals and the karats without a reload, one stream per page, again after Back', async () => {
    const page = await newPage();
    const seen = watch(page);
    const opened = streams(page);
    await page.goto(`${app.url}/gold/usd/oz`);
    await expect.poll(() => opened.length).toBe(1);
    for (let i = 0; i < 2; i++) {
      const price = newPrice();
      await expect.poll(() => value(page, 'price'), { timeout: 10_000 }).toBe(price);
      const spot = (await app.json('/api/v1/spot?compact=1')).body;
      expect(spot.xau.price).toBe(price);
      expect(await value(page, 'm-gold')).toBe(price);
      expect(await value(page, 'k-22k')).toBe(spot.karats['22k']);
      // What metal is worth follows too: a kilogram's value is /api/v1/value's at the new price.
      expect(await value(page, 'q-1-kg')).toBe((await app.json('/api/v1/value?weight=1&unit=kg')).body.melt_value);
      // Each price here is higher than the last: the session's high is the new price, as spot's own bar says.
      expect(await value(page, 'high')).toBe(spot.change.high);
      expect(await value(page, 'change')).toBe(spot.change.change);
      expect(await page.textContent('[data-f="price"]')).toBe(price.toLocaleString('en', { style: 'currency', currency: 'USD' }));
    }
    expect(opened).toHaveLength(1);
    expect(opened[0]).toBe(`${app.url}/api/v1/stream`);
    // Away and Back: from the back/forward cache (or anew), the page follows the price again, on one stream.
    await page.goto(`${app.url}/docs`);
    await page.goBack();
    await expect.poll(() => opened.length).toBe(2);
    const price = newPrice();
    await expect.poll(() => value(page, 'price'), { timeout: 10_000 }).toBe(price);
    expect(opened).toHaveLength(2);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('an exchange rate that goes stale', () => {
  it('the pill stops saying live as soon as the stream says the rate is stale, and says how old it is; live again when it returns', async () => {
    const page = await newPage();
    const seen = watch(page);
    await page.goto(`${app.url}/gold/eur/gram`);
    const pill = async () => ({ text: await page.textContent('[data-f="state"]'), className: await page.getAttribute('[data-f="state"]', 'class') });
    await expect.poll(pill).toEqual({ text: 'live', className: 'pill' });
    // The FX upstream goes down: past the table's time (CACHE_TTL_S 1) spot serves the last live table, stale. Its age
    // is counted from the table's own time (the recorded body's, months before this run).
    fake.set('fx', { mode: 'refuse' });
    try {
      const spot = () => app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1');
      await expect.poll(async () => (await spot()).body.fx_stale, { timeout: 20_000 }).toBe(true);
      const asOf = Date.parse((await spot()).body.groups.fx.as_of);
      const days = () => Math.floor((Date.now() - asOf) / 86_400_000);
      await expect
        .poll(async () => ({ ...(await pill()), days: days() }), { timeout: 20_000 })
        .toEqual({ text: `live in US dollars · exchange rate from ${days()} days ago`, className: 'badge', days: days() });
    } finally {
      fake.set('fx', { mode: 'ok' });
    }
    await expect.poll(pill, { timeout: 20_000 }).toEqual({ text: 'live', className: 'pill' });
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('on a 360 px phone', () => {
  it('the whole headline is inside its card, on one line, in a billion dong, rupiah or a million won per kilogram and in Arabic; no sideways scroll', async () => {
    const page = await newPage({ viewport: { width: 360, height: 740 } });
    for (const path of ['/gold/vnd/kg', '/gold/idr/kg', '/gold/krw/kg', '/gold/aed/kg?lang=ar', '/gold/eur/gram']) {
      await page.goto(app.url + path);
      const box = await page.evaluate(() => {
        const card = document.querySelector('.pp-now')!.getBoundingClientRect();
        const text = document.querySelector('#pp-price [data-f="price"]')!;
        // One box per direction run (Arabic has two or three), all on one line: their tops are one.
        const lines = new Set([...text.getClientRects()].map((b) => Math.round(b.top)));
        const r = text.getBoundingClientRect();
        return {
          card: { left: card.left, right: card.right },
          text: { left: r.left, right: r.right },
          lines: lines.size,
          size: parseFloat(getComputedStyle(document.getElementById('pp-price')!).fontSize),
          price: text.textContent,
          scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(box.price, path).toMatch(/\d/);
      expect(box.text.left, `${path}: ${box.price}`).toBeGreaterThanOrEqual(box.card.left);
      expect(box.text.right, `${path}: ${box.price}`).toBeLessThanOrEqual(box.card.right);
      expect(box.lines, path).toBe(1);
      expect(box.scroll, path).toBeLessThanOrEqual(0);
      // A long figure is smaller than the 3.2rem a short one gets; never clipped (the card does not hide what overflows).
      if (path.includes('/kg')) expect(box.size, path).toBeLessThan(3.2 * 16);
    }
    await page.close();
  });
});

describe('times', () => {
  it('once the reader uses the page, its times are in the reader’s own zone (the server writes UTC, naming it)', async () => {
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    await page.goto(`${app.url}/gold/eur/gram`);
    const asOf = () => page.textContent('[data-f="as-of"]');
    await page.keyboard.press('Tab');
    await expect.poll(asOf, { timeout: 10_000 }).not.toContain('UTC');
    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body;
    // Tokyo's hour of the price's own time (Japan keeps no summer time: UTC+9 all year).
    const hour = (new Date(spot.data_state.as_of).getUTCHours() + 9) % 24;
    expect(await asOf()).toContain(`${hour % 12 || 12}:`);
    await context.close();
  });
});

describe('a date, and what your metal is worth', () => {
  it('?date= shows that day’s value of the spot bars; the date form goes to the page for another', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/gold/eur/gram?date=2026-04-15`);
    const history = (await app.json('/api/v1/history?series=spot&symbol=xau&currency=EUR&unit=gram&date=2026-04-15')).body;
    expect(await page.getAttribute('#date-value', 'data-v')).toBe(String(history.points[0].c));
    expect(await page.textContent('#date-value')).toContain('Spot, daily closes');
    // The date form works as a form: another date, submitted, is the page for it.
    await page.fill('#pp-date-in', '2026-04-16');
    await Promise.all([page.waitForURL(/date=2026-04-16/), page.click('form:has(#pp-date-in) button')]);
    expect(page.url()).toContain('/gold/eur/gram?date=2026-04-16');

    await page.close();
  });

  it('what your metal is worth: each form answers as you type and, sent, from the server, with /api/v1/value’s figures', async () => {
    const page = await newPage();
    const seen = watch(page);
    await page.goto(`${app.url}/gold/eur/gram`);
    const worth = () => page.getAttribute('[data-f="worth"]', 'data-v').then(Number);
    const value = async (q: string) => (await app.json(`/api/v1/value?currency=EUR&${q}`)).body;
    // 12 g of 14k with a quote 10 % over value's own figure: above it, in value's percent.
    const base = (await value('weight=12&unit=gram&karat=14')).melt_value;
    const quote = Math.round(base * 1.1);
    await page.fill('#wv-w', '12');
    await page.selectOption('#wv-u', 'gram');
    await page.selectOption('#wv-p', '14k');
    await page.fill('#wv-q', String(quote));
    const asked = await value(`weight=12&unit=gram&karat=14&quote=${quote}`);
    await expect.poll(worth).toBe(asked.melt_value);
    expect(Number(await page.getAttribute('[data-f="worth-quote"]', 'data-v'))).toBe(asked.quote.premium_pct);
    expect(await page.textContent('[data-f="worth-quote"]')).toContain('above the metal’s value');
    // Sent, the server answers the same at a URL that says what was asked, opened on the answer.
    await Promise.all([page.waitForURL(/weight=12/), page.click('#worth-weight button')]);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ weight: '12', unit: 'gram', fineness: '14k', quote: String(quote) });
    expect(url.hash).toBe('#worth-answer');
    expect(await worth()).toBe(asked.melt_value);
    expect(await page.textContent('[data-f="worth"]')).toMatch(/^Metal value of 12 g of 14k gold: €[\d,]+\.\d\d$/);

    // Two Krugerrands, as you type.
    await page.selectOption('#wc-i', 'krugerrand');
    await page.fill('#wc-n', '2');
    await expect.poll(worth).toBe((await value('item=krugerrand&qty=2')).melt_value);
    expect(await page.textContent('[data-f="worth"]')).toMatch(/^Metal value of 2 × Krugerrand \(1 oz\): €/);
    // A count that is not whole is said, not valued.
    await page.fill('#wc-n', '1.5');
    await expect.poll(() => page.textContent('[data-f="worth"]')).toBe('Enter a whole number of coins from 1 to 1,000,000.');
    // What €1,000 buys at 22k, in troy ounces.
    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=oz&compact=1')).body;
    await page.selectOption('#wm-u', 'oz');
    await page.selectOption('#wm-p', '22k');
    await page.fill('#wm-m', '1000');
    await expect.poll(async () => (await worth()) * spot.spot_usd_oz * spot.fx_rate * (22 / 24)).toBeCloseTo(1000, 6);
    expect(await page.textContent('[data-f="worth"]')).toMatch(/^€1,000\.00 is the metal value of [\d.]+ troy oz of 22k gold$/);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('languages and accessibility', () => {
  for (const [lang, dir] of [
    ['en', null],
    ['de', null],
    ['ar', 'rtl'],
  ] as const) {
    it(`?lang=${lang}: renders without console errors${dir ? ', right to left' : ''}; axe finds no serious violation`, async () => {
      const page = await newPage();
      const seen = watch(page);
      const scripts: string[] = [];
      page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
      const res = await page.goto(`${app.url}/gold/eur/gram?lang=${lang}`);
      expect(res?.status()).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await page.getAttribute('html', 'dir')).toBe(dir);
      await page.waitForSelector('[data-f="state"]');
      if (lang === 'de') expect(await page.textContent('h1')).toBe('Goldpreis in EUR pro Gramm');
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const only = scheme === 'dark' ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {};
        expect(await seriousViolations(page, only), `${lang} ${scheme}`).toEqual([]);
      }
      expect(seen.errors).toEqual([]);
      expect(seen.failed).toEqual([]);
      // Readable on a phone: no horizontal scroll.
      await page.setViewportSize({ width: 375, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      // No framework code: the page's own script alone, within the 30 KB (gzip) allowed before the chart.
      expect(scripts.filter((s) => s.startsWith('/_next/'))).toEqual([]);
      const own = scripts.filter((s) => /^\/w\/price-page\.[A-Z0-9]{8}\.js$/.test(s));
      expect(own).toHaveLength(1);
      const js = Buffer.from(await (await app.get(own[0])).arrayBuffer());
      expect(gzipSync(js).length).toBeLessThanOrEqual(30 * 1024);
      await page.close();
    });
  }
});

describe('the largest paint', () => {
  it('on a phone the largest paint is the server-rendered price, in a short heading’s language and in a long one’s', async () => {
    for (const lang of ['en', 'pt']) {
      const page = await browser.newPage({ viewport: { width: 412, height: 823 }, isMobile: true });
      await page.addInitScript(() => {
        const seen: string[] = ((window as unknown as { lcp: string[] }).lcp = []);
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) seen.push((e as PerformanceEntry & { element: Element | null }).element?.id ?? '');
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(`${app.url}/palladium/usd/oz?lang=${lang}`);
      await expect.poll(() => page.evaluate(() => (window as unknown as { lcp: string[] }).lcp.at(-1)), { timeout: 10_000 }).toBe('pp-price');
      await page.close();
    }
  });
});

describe('the chart', () => {
  const t = STRINGS.en;
  /** The service's day: its clock reads OPEN_DAY. */
  const today = new Date(OPEN_DAY).toISOString().slice(0, 10);
  const pct = (first: number, last: number) =>
    new Intl.NumberFormat('en', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      last / first - 1,
    );
  const drawn = (page: Page) => page.getAttribute('#chart', 'data-drawn');
  /** The change the page should write: from the first and last close of the API's answer for the window, fetched now. */
  async function changeOf(url: string, over: (first: string) => string): Promise<string> {
    const points: { d: string; c: number }[] = (await app.json(url)).body.points;
    expect(points.length).toBeGreaterThan(1);
    return `${pct(points[0].c, points.at(-1)!.c)} ${over(points[0].d)}`;
  }

  it('mounts when scrolled to; 1Y, 1D and MAX ask for their series in the page’s currency and unit, name it, and write the change of the API’s answer', async () => {
    // A window so short that the chart starts more than the script's margin (600 px) below it.
    const page = await newPage({ viewport: { width: 375, height: 100 } });
    const seen = watch(page);
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/') && !r.url().includes('/stream') && asked.push(r.url().slice(app.url.length)));
    await page.goto(`${app.url}/gold/eur/gram`);
    // Two frames: an observer's first answer has come by then.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.locator('#chart').evaluate((s) => s.getBoundingClientRect().top - innerHeight)).toBeGreaterThan(600);
    expect(await page.getAttribute('#chart', 'data-mounted')).toBeNull();
    expect(asked).toEqual([]);
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1y');
    await page.setViewportSize({ width: 1000, height: 800 });

    const year = `/api/v1/history?series=futures&from=${daysBefore(today, 366)}&currency=EUR&unit=gram`;
    expect(asked).toEqual([year]);
    expect(await page.textContent('#chart .pc-caption')).toBe(`${t.lineFutures} · EUR/${t.abbrGram}`);
    expect(await page.textContent('#chart .pc-change')).toBe(await changeOf(year, () => 'over 1 year'));

    await page.click('#chart button[data-range="1d"]');
    await expect.poll(() => drawn(page)).toBe('1d');
    expect(asked.at(-1)).toBe('/api/v1/intraday?symbol=xau&hours=24');
    // The recorded 2-minute series (dollars per troy ounce) is drawn in the page's currency and unit, saying at what rate.
    expect(await page.textContent('#chart .pc-caption')).toBe(`${t.lineIntraday} · EUR/${t.abbrGram} at the current exchange rate`);

    await page.click('#chart button[data-range="max"]');
    await expect.poll(() => drawn(page)).toBe('max');
    const max = '/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram';
    expect(asked.at(-1)).toBe(max);
    expect(await page.textContent('#chart .pc-caption')).toBe(`${t.lineMonthly} · EUR/${t.abbrGram}`);
    expect(await page.textContent('#chart .pc-change')).toBe(await changeOf(max, (d) => `since ${d.slice(0, 4)}`));
    expect(await page.isVisible('#chart button.pc-log')).toBe(true);
    expect(new URL(page.url()).searchParams.get('range')).toBe('max');
    expect(seen.errors).toEqual([]);
    expect(seen.failed.filter((f) => !f.includes('/api/v1/stream'))).toEqual([]);
    await page.close();
  });

  it('1D in euros per gram: each recorded sample at the rate spot uses now, per gram, rounded as spot rounds it', async () => {
    // Samples of at least two prices, recorded by the cron route (a bucket a second) as the upstream's price moves.
    const prices = async () => new Set((await app.json('/api/v1/intraday?symbol=xau&hours=24')).body.points.map((p: { p: number }) => p.p)).size;
    await expect
      .poll(
        async () => {
          newPrice();
          await app.get('/api/cron/sample', { headers: { authorization: `Bearer ${CRON_SECRET}` } });
          return prices();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const page = await newPage();
    await page.goto(`${app.url}/gold/eur/gram?range=1d`);
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1d');
    const [intraday, spot] = await Promise.all([
      app.json('/api/v1/intraday?symbol=xau&hours=24'),
      app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1'),
    ]);
    const usd: number[] = intraday.body.points.map((p: { p: number }) => p.p);
    const perGram = usd.map((p) => roundTo((p * spot.body.fx_rate) / GRAMS_PER_OZ, 4));
    // The line's high and low, as the chart writes them beside it: euros per gram, never dollars per ounce.
    expect(digits(await page.textContent('#chart [data-f="hi"]'))).toBe(Math.max(...perGram).toFixed(4));
    expect(digits(await page.textContent('#chart [data-f="lo"]'))).toBe(Math.min(...perGram).toFixed(4));
    expect(await page.textContent('#chart [data-f="hi"]')).toMatch(/^€/);
    await page.close();
  });

  it('?range=5y opens on five years, with their change', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/gold/eur/gram?range=5y`);
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('5y');
    expect(await page.getAttribute('#chart button[data-range="5y"]', 'aria-pressed')).toBe('true');
    const url = `/api/v1/history?series=futures&from=${daysBefore(today, 1827)}&currency=EUR&unit=gram`;
    expect(await page.textContent('#chart .pc-change')).toBe(await changeOf(url, () => 'over 5 years'));
    await page.close();
  });
});

describe('notify me', () => {
  it('subscribes through /sw.js with the VAPID key, POSTs the alert in the page’s currency and unit, lists it with its status and cancels it; a 400 is said', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: app.url });
    const page = await context.newPage();
    // No push service answers here: pushManager.subscribe is stood in for by a subscription of the real shape (a P-256
    // key, a 16-byte auth secret), which records the key it was asked to subscribe with.
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
    await page.addInitScript((keys) => {
      const w = window as unknown as { __endpoint: string; __key: number[] | null };
      w.__endpoint = 'http://127.0.0.1:9/push/browser-test';
      w.__key = null;
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        w.__key = [...new Uint8Array(options!.applicationServerKey as ArrayBuffer)];
        const json = { endpoint: w.__endpoint, expirationTime: null, keys };
        return { endpoint: json.endpoint, options, toJSON: () => json, unsubscribe: async () => true } as unknown as PushSubscription;
      };
    }, keys);
    const posted: unknown[] = [];
    const answers: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/alerts') posted.push(r.postDataJSON());
    });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/v1/alerts') || path === '/sw.js')
        answers.push(`${r.request().method()} ${path.replace(/alrt_[\w-]+/, '{id}')} ${r.status()}`);
    });
    await page.goto(`${app.url}/gold/eur/gram`);
    expect(await page.textContent('#pp-notify')).toBe('Notify me');
    expect(await page.textContent('label[for="nt-level"]')).toBe('Level (EUR per gram)');
    await page.locator('#notify').scrollIntoViewIfNeeded();
    await page.waitForSelector('#notify-form button:not([disabled])', { timeout: 15_000 });

    const spot = (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body;
    const level = Math.round(spot.xau.price * 1.2);
    await page.fill('#nt-level', String(level));
    await page.selectOption('#nt-dir', 'above');
    await page.click('#notify-form button');
    await expect.poll(() => page.textContent('#nt-msg'), { timeout: 15_000 }).toMatch(/^Alert set: Gold above €[\d,.]+ per gram\.$/);
    expect(posted).toEqual([
      { metal: 'gold', currency: 'EUR', unit: 'gram', above: level, push: { endpoint: 'http://127.0.0.1:9/push/browser-test', keys } },
    ]);
    // Subscribed with the deployment's key, through the service worker at /sw.js, scope /.
    const key = (await app.json('/api/v1/alerts/push-key')).body.public_key;
    expect(Buffer.from((await page.evaluate(() => (window as unknown as { __key: number[] }).__key)) ?? []).toString('base64url')).toBe(key);
    const worker = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return { script: reg.active?.scriptURL, scope: reg.scope };
    });
    expect(worker).toEqual({ script: `${app.url}/sw.js`, scope: `${app.url}/` });

    // Listed with its status as its manage URL tells it, and cancelled.
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('price-alerts') ?? '[]'));
    expect(saved).toHaveLength(1);
    const manage = new URL(saved[0].manage_url);
    const view = await app.json(manage.pathname + manage.search);
    expect(view.body).toMatchObject({ status: 'active', metal: 'gold', currency: 'EUR', unit: 'gram', condition: { type: 'above', value: level } });
    await expect.poll(() => page.textContent('#nt-list li'), { timeout: 10_000 }).toContain('(active)');
    await page.click('#nt-list li button');
    await expect.poll(() => page.textContent('#nt-msg'), { timeout: 10_000 }).toMatch(/^Alert cancelled: Gold above/);
    expect(await page.locator('#nt-list li').count()).toBe(0);
    expect((await app.get(manage.pathname + manage.search)).status).toBe(404);
    expect(await page.evaluate(() => localStorage.getItem('price-alerts'))).toBe('[]');

    // An endpoint off the known push services: the service's 400, said with its reason.
    await page.evaluate(() => ((window as unknown as { __endpoint: string }).__endpoint = 'https://push.example.com/send/1'));
    await page.click('#notify-form button');
    await expect.poll(() => page.textContent('#nt-msg'), { timeout: 10_000 }).toMatch(/^The alert was refused: .*push\.endpoint/);
    // Every request of the section, in order, answered as expected (the worker's script fetched by the browser itself).
    expect(answers.filter((a) => !a.includes('/sw.js'))).toEqual([
      'GET /api/v1/alerts/push-key 200',
      'POST /api/v1/alerts 201',
      'GET /api/v1/alerts/{id} 200',
      'DELETE /api/v1/alerts/{id} 204',
      'GET /api/v1/alerts/push-key 200',
      'POST /api/v1/alerts 400',
    ]);
    await context.close();
  });
});
