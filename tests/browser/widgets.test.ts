import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { fill } from '@/widgets/format';
import { STRINGS } from '@/widgets/i18n';
import { WIDGETS } from '@/widgets/kinds';
import { App } from '../support/app';
import { framedWidget, launchBrowser, releaseBrowser, watch } from '../support/browser';
import { pagesInOneRenderer } from '../support/renderer-pages';
import { sleep } from '../support/expect';
import { dataDirWithBars, fixtureBars, fixtureDates } from '../support/bars';
import { CHART_LABELS, chartLabel } from '@/site/chart-plan';
import { FakeUpstream, fixtureText } from '../support/fake-upstream';
import { marketClockAt } from '../support/market';
import { HostSite } from '../support/host';
import { realChartHandler } from '../support/yahoo';

// Widgets as a publisher's readers see them: embedded on another origin, in real Chromium.

let fake: FakeUpstream;
let app: App;
let host: HostSite;
let browser: Browser;
const newPage = pagesInOneRenderer(() => browser);

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  app = await App.start({ env: fake.env() });
  host = await HostSite.start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await host?.close();
  await app?.stop();
  await fake?.close();
});

/** The display rule of the widgets: spot's own decimals (gram 4, every other unit 2, decisions §3) in every currency (a yen too). */
async function expectedPrice(frame: Frame, value: number, currency: string, locale: string, unit: string): Promise<string> {
  return frame.evaluate(
    ({ value, currency, locale, unit }) => {
      const d = unit === 'gram' ? 4 : 2;
      return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: d, maximumFractionDigits: d }).format(value);
    },
    { value, currency, locale, unit },
  );
}

async function widgetFrame(page: Page, path: string): Promise<Frame> {
  const handle = await page.waitForSelector(`iframe[src*="${path}"]`);
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no frame');
  await frame.waitForSelector('[data-f="price"], [data-f="result"]');
  return frame;
}

describe('price widget on a publisher page', () => {
  const cases = [
    { how: 'iframe', currency: 'EUR', locale: 'de-DE', unit: 'oz' },
    { how: 'script', currency: 'JPY', locale: 'ja-JP', unit: 'gram' },
    { how: 'div', currency: 'INR', locale: 'hi-IN', unit: 'kg' },
  ];
  for (const c of cases) {
    it(`by ${c.how}: ${c.currency} per ${c.unit} in ${c.locale}, dark, resized, no errors`, async () => {
      const params = `currency=${c.currency}&unit=${c.unit}&locale=${c.locale}&theme=dark&silver=1&ratio=1`;
      const embed =
        c.how === 'iframe'
          ? `<iframe src="${app.url}/widgets/price?${params}" style="width:360px;height:200px;border:0"></iframe>`
          : c.how === 'script'
            ? `<p>Before</p><script src="${app.url}/embed.js" data-widget="price" data-currency="${c.currency}" data-unit="${c.unit}" data-locale="${c.locale}" data-theme="dark" data-silver="1" data-ratio="1"></script><p>After</p>`
            : `<div data-gold-widget="price" data-currency="${c.currency}" data-unit="${c.unit}" data-locale="${c.locale}" data-theme="dark"></div><script src="${app.url}/embed.js"></script>`;
      const page = await newPage({ viewport: { width: 420, height: 700 } });
      const seen = watch(page);
      await page.goto(host.page(embed));
      const frame = await widgetFrame(page, '/widgets/price');
      const api = await app.json(`/api/v1/spot?currency=${c.currency}&unit=${c.unit}&compact=1`);
      await expect
        .poll(() => frame.textContent('[data-f="price"]'))
        .toBe(await expectedPrice(frame, api.body.xau.price, c.currency, c.locale, c.unit));
      expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(23, 21, 15)');
      if (c.how !== 'iframe') {
        // embed.js sizes the frame to its content.
        const iframe = await page.$('iframe');
        await expect
          .poll(async () => {
            const contentHeight = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
            const frameHeight = await iframe!.evaluate((f) => f.getBoundingClientRect().height);
            return Math.abs(contentHeight - frameHeight);
          })
          .toBeLessThanOrEqual(1);
        // Named in the widget's language once it has loaded.
        await expect.poll(() => iframe!.getAttribute('title')).toBe(STRINGS[c.locale.slice(0, 2) as 'ja' | 'hi'].priceTitle);
      }
      expect(seen.errors).toEqual([]);
      expect(seen.failed).toEqual([]);
      await page.close();
    });
  }

  it('the first price is visible with no JavaScript at all', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/widgets/price?currency=USD`);
    const api = await app.json('/api/v1/spot?compact=1');
    expect(await page.textContent('[data-f="price"]')).toBe(await expectedPrice(page.mainFrame(), api.body.xau.price, 'USD', 'en-US', 'oz'));
    await context.close();
  });

  it('embed.js included twice makes one frame per placeholder', async () => {
    const page = await newPage();
    await page.goto(
      host.page(
        `<div data-gold-widget="price"></div><div data-gold-widget="converter"></div><script src="${app.url}/embed.js"></script><script src="${app.url}/embed.js"></script>`,
      ),
    );
    await page.waitForSelector('iframe');
    await sleep(300);
    expect(await page.$$eval('iframe', (fs) => fs.length)).toBe(2);
    await page.close();
  });

  it('embed.js in a browser without IntersectionObserver makes the frame at once', async () => {
    const page = await newPage();
    await page.addInitScript(() => delete (window as { IntersectionObserver?: unknown }).IntersectionObserver);
    await page.goto(host.page(`<div data-gold-widget="price"></div><script src="${app.url}/embed.js"></script>`));
    const frame = await widgetFrame(page, '/widgets/price');
    expect(await frame.textContent('[data-f="price"]')).toMatch(/^\$[\d,]+\.\d{2}$/);
    expect(await page.$('[data-gold-widget-slot]')).toBeNull();
    await page.close();
  });

  it('embed.js run before the page is parsed (a script at the top) still finds the places after it', async () => {
    const page = await newPage();
    await page.goto(host.page(`<script src="${app.url}/embed.js"></script><p>Article</p><div data-gold-widget="price" data-currency="GBP"></div>`));
    const frame = await widgetFrame(page, '/widgets/price?currency=GBP');
    await expect.poll(() => frame.textContent('[data-f="price"]')).toMatch(/^£[\d,]+\.\d{2}$/);
    await page.close();
  });

  it('embed.js ignores size and title messages from any other origin or window', async () => {
    const page = await newPage();
    await page.goto(host.page(`<script src="${app.url}/embed.js" data-widget="price"></script>`));
    const frame = await widgetFrame(page, '/widgets/price');
    const iframe = (await page.$('iframe'))!;
    await expect.poll(() => iframe.evaluate((f) => f.style.height)).not.toBe('150px');
    const settled = await iframe.evaluate((f) => f.style.height);
    // The host page itself (another origin) claims to be the widget.
    const title = await iframe.getAttribute('title');
    await page.evaluate(() => window.postMessage({ goldWidget: { id: 'gw1', height: 999, title: 'Spoofed' } }, '*'));
    await sleep(200);
    expect(await iframe.evaluate((f) => f.style.height)).toBe(settled);
    expect(await iframe.getAttribute('title')).toBe(title);
    expect(await frame.textContent('[data-f="price"]')).toBeTruthy();
    await page.close();
  });

  it('lazy: a widget far below the fold is not even a frame until scrolled near; its place is held at its height', async () => {
    const page = await newPage({ viewport: { width: 400, height: 400 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(
      host.page(`<div style="height:3000px">tall article</div><div data-gold-widget="price"></div><script src="${app.url}/embed.js"></script>`),
    );
    const slot = await page.waitForSelector('[data-gold-widget-slot="price"]');
    await sleep(300);
    expect(await page.$$('iframe')).toHaveLength(0);
    expect(requests.filter((u) => u.includes('/widgets/price'))).toEqual([]);
    // The place is held at the height the frame starts at, so the page does not jump when it comes.
    expect(await slot.evaluate((d) => d.getBoundingClientRect().height)).toBe(WIDGETS.price.height);
    await slot.scrollIntoViewIfNeeded();
    const frame = await widgetFrame(page, '/widgets/price');
    expect(await frame.textContent('[data-f="price"]')).toMatch(/^\$[\d,]+\.\d{2}$/);
    expect(await page.$('[data-gold-widget-slot]')).toBeNull();
    await page.close();
  });
});

describe('price widget: change since the previous close, from spot only', () => {
  it('shows the spot change with its sign and arrow in two locales, and nothing on a deployment with no earlier bar', async () => {
    // A trading Thursday after a session with a real imported bar; the fresh app beside it has no bar at all.
    const clock = { ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')), UPSTREAM_TIMEOUT_MS: '5000' };
    const seeded = await App.start({ env: { ...fake.env(), ...clock }, dataDir: await dataDirWithBars(['2026-04-15']) });
    const fresh = await App.start({ env: { ...fake.env(), ...clock } });
    try {
      for (const [locale, currency] of [
        ['en-US', 'USD'],
        ['de-DE', 'EUR'],
      ] as const) {
        const spot = await seeded.json(`/api/v1/spot?currency=${currency}&compact=1`);
        const c = spot.body.change;
        expect(c).toMatchObject({ state: 'ok', previous_close_date: '2026-04-15' });
        const page = await newPage();
        await page.goto(`${seeded.url}/widgets/price?locale=${locale}&currency=${currency}`);
        const expected = await page.evaluate(
          ({ locale, currency, change, pct }) => {
            const signed = new Intl.NumberFormat(locale, { style: 'currency', currency, signDisplay: 'exceptZero' }).format(change);
            const percent = new Intl.NumberFormat(locale, {
              style: 'percent',
              signDisplay: 'exceptZero',
              minimumFractionDigits: 2,
              maximumFractionDigits: 2,
            }).format(pct / 100);
            return { signed, percent };
          },
          { locale, currency, change: c.change, pct: c.change_pct },
        );
        const lang = locale.slice(0, 2) as 'en' | 'de';
        const arrow = c.change > 0 ? '▲' : c.change < 0 ? '▼' : '▶';
        const text = await page.textContent('[data-f="change"]');
        expect(text).toBe(fill(STRINGS[lang].sinceClose, { arrow, change: expected.signed, pct: expected.percent }));
        // The direction is in the words, not in the colour alone.
        expect(text).toMatch(c.change > 0 ? /▲ \+/ : c.change < 0 ? /▼ [-−]/ : /▶/);
        expect(await page.isVisible('[data-f="change"]')).toBe(true);
        await page.close();
      }
      // The futures history is served, yet a deployment with no spot bar shows no change at all.
      expect((await fresh.json('/api/v1/history')).body.points.length).toBeGreaterThan(1);
      expect((await fresh.json('/api/v1/spot?compact=1')).body.change).toMatchObject({ state: 'unavailable', change: null, change_pct: null });
      const page = await newPage();
      await page.goto(`${fresh.url}/widgets/price?locale=en-US`);
      expect(await page.isVisible('[data-f="change"]')).toBe(false);
      expect(await page.textContent('main')).not.toMatch(/%|on the day|previous close/);
      await page.close();
    } finally {
      await seeded.stop();
      await fresh.stop();
    }
  });
});

describe('chart widget', () => {
  const usd = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(v);
  const isLibraryChunk = (u: string) => /\/w\/chunk\.[A-Z0-9]+\.js$/.test(u);

  for (const how of ['iframe', 'script']) {
    it(`by ${how}: draws the real bars at once, starts the interactive chart when a pointer comes, switches range, follows its frame's width`, async () => {
      const embed =
        how === 'iframe'
          ? `<iframe id="f" src="${app.url}/widgets/chart?range=3mo&theme=dark" style="width:420px;height:360px;border:0"></iframe>`
          : `<div style="width:420px" id="box"><script src="${app.url}/embed.js" data-widget="chart" data-range="3mo" data-theme="dark"></script></div>`;
      const page = await newPage({ viewport: { width: 800, height: 900 } });
      const seen = watch(page);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(host.page(embed));
      const handle = await page.waitForSelector('iframe');
      const frame = (await handle.contentFrame())!;
      await expect.poll(() => requests.some((u) => u.includes('/api/v1/chart?symbol=xau&range=3mo&interval=1d'))).toBe(true);
      const spot = await app.json('/api/v1/spot?compact=1');
      expect(await frame.textContent('[data-f="price"]')).toBe(`$${spot.body.spot_usd_oz.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(23, 21, 15)');

      // The first frame: one vertex per real close, labelled with the series' own high and low.
      const bars: number[] = (await app.json('/api/v1/chart?symbol=xau&range=3mo&interval=1d')).body.points.map((p: { c: number }) => p.c);
      await frame.waitForSelector('.frame path[d^="M"]');
      expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)).toHaveLength(bars.length);
      expect(await frame.textContent('[data-f="hi"]')).toBe(usd(Math.max(...bars)));
      expect(await frame.textContent('[data-f="lo"]')).toBe(usd(Math.min(...bars)));
      // ... drawn without the chart library, which nothing has asked for yet.
      await sleep(300);
      expect(await frame.$('canvas')).toBeNull();
      expect(requests.filter(isLibraryChunk)).toEqual([]);

      // A pointer over the plot starts the library; its crosshair shows a date and one of the real closes.
      const box = (await frame.$('[data-f="chart"]'))!;
      const bb = (await box.boundingBox())!;
      await page.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
      await frame.waitForSelector('canvas');
      expect(requests.filter(isLibraryChunk)).toHaveLength(1);
      expect(await frame.$('.frame')).toBeNull();
      let nudge = 0;
      await expect
        .poll(async () => {
          await page.mouse.move(bb.x + bb.width / 2 + (nudge++ % 2), bb.y + bb.height / 2);
          return frame.textContent('[data-f="cross"]');
        })
        .toMatch(/ · \$[\d,]+\.\d{2}$/);
      const shown = Number((await frame.textContent('[data-f="cross"]'))!.split('$')[1].replace(/,/g, ''));
      expect(bars.some((c: number) => Math.abs(c - shown) < 0.006)).toBe(true);

      // Range switch: a new request for 1Y bars.
      await frame.click('button[data-range="1y"]');
      await expect.poll(() => requests.some((u) => u.includes('range=1y&interval=1d'))).toBe(true);
      expect(await frame.getAttribute('button[data-range="1y"]', 'aria-pressed')).toBe('true');

      // Resizes with its frame.
      await page.evaluate(() => {
        const f = document.querySelector('iframe')!;
        (f.parentElement!.id === 'box' ? f.parentElement! : f).style.width = '300px';
      });
      await expect.poll(() => frame.evaluate(() => document.querySelector('canvas')!.getBoundingClientRect().width)).toBeLessThanOrEqual(300);
      expect(seen.errors).toEqual([]);
      expect(seen.failed).toEqual([]);
      await page.close();
    });
  }

  it('keyboard focus starts the chart library too, and a range switch before it redraws the first frame from the new bars', async () => {
    const page = await newPage();
    const seen = watch(page);
    const frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=3mo&locale=en-US`);
    await frame.waitForSelector('.frame path[d^="M"]');
    // A range switch by script (no pointer, no focus): the frame follows the 1Y answer.
    const year: number[] = (await app.json('/api/v1/chart?symbol=xau&range=1y&interval=1d')).body.points.map((p: { c: number }) => p.c);
    await frame.$eval('button[data-range="1y"]', (b) => (b as HTMLButtonElement).click());
    await expect.poll(() => frame.textContent('[data-f="lo"]')).toBe(usd(Math.min(...year)));
    expect(await frame.textContent('[data-f="hi"]')).toBe(usd(Math.max(...year)));
    expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)).toHaveLength(year.length);
    expect(await frame.$('canvas')).toBeNull();
    await page.keyboard.press('Tab');
    await frame.waitForSelector('canvas');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('refreshes at the pace of the range shown: every 2 minutes once switched to 1D, every 5 on the longer ranges', async () => {
    const page = await newPage();
    await page.clock.install();
    const asked: string[] = [];
    let firstAskAt = 0;
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (!u.pathname.startsWith('/api/v1/')) return;
      asked.push(u.pathname + u.search);
      firstAskAt ||= Date.now();
    });
    const frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=3mo`);
    await frame.waitForSelector('.frame path[d^="M"]');
    const count = (part: string) => asked.filter((u) => u.includes(part)).length;
    expect(count('range=3mo')).toBe(1);
    // The page's clock runs at the real pace until fast-forwarded, and a loaded machine can take seconds
    // to draw: the next ask is due 300 s after the first, so go to one second before that.
    await page.clock.fastForward(299_000 - (Date.now() - firstAskAt));
    expect(count('range=3mo')).toBe(1);
    await page.clock.fastForward(2_000);
    await expect.poll(() => count('range=3mo')).toBe(2);
    // Switched to one day of gold: the recorded series, asked for at once and then every 2 minutes.
    await frame.$eval('button[data-range="1d"]', (b) => (b as HTMLButtonElement).click());
    await expect.poll(() => count('/api/v1/intraday')).toBe(1);
    for (const n of [2, 3]) {
      await page.clock.fastForward(121_000);
      await expect.poll(() => count('/api/v1/intraday')).toBe(n);
    }
    await page.close();
  });

  it('a range picked while the previous answer is on its way is fetched when it arrives, and drawn last', async () => {
    const page = await newPage();
    // The first answer takes its time; the reader picks 1Y meanwhile.
    await page.route('**/api/v1/chart?symbol=xau&range=3mo*', async (route) => {
      await sleep(1500);
      await route.continue();
    });
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    const frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=3mo`);
    await expect.poll(() => asked.some((u) => u.includes('range=3mo'))).toBe(true);
    await frame.$eval('button[data-range="1y"]', (b) => (b as HTMLButtonElement).click());
    await expect.poll(() => asked.some((u) => u.includes('range=1y'))).toBe(true);
    const year: number[] = (await app.json('/api/v1/chart?symbol=xau&range=1y&interval=1d')).body.points.map((p: { c: number }) => p.c);
    await expect.poll(() => frame.textContent('[data-f="lo"]')).toBe(usd(Math.min(...year)));
    expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)).toHaveLength(year.length);
    await page.close();
  });

  it('a chart library that cannot load (offline, blocked) leaves the first frame, which still follows the data', async () => {
    const page = await newPage();
    const seen = watch(page);
    await page.route(/\/w\/chunk\.[A-Z0-9]+\.js$/, (route) => route.abort('internetdisconnected'));
    const frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=3mo`);
    await frame.waitForSelector('.frame path[d^="M"]');
    await frame.hover('[data-f="chart"]');
    await expect.poll(() => seen.failed.filter((f) => /\/w\/chunk\./.test(f)).length).toBe(1);
    expect(await frame.$('canvas')).toBeNull();
    const year: number[] = (await app.json('/api/v1/chart?symbol=xau&range=1y&interval=1d')).body.points.map((p: { c: number }) => p.c);
    await frame.click('button[data-range="1y"]');
    await expect.poll(() => frame.textContent('[data-f="lo"]')).toBe(usd(Math.min(...year)));
    expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)).toHaveLength(year.length);
    // The browser logs the refused download itself; the script throws nothing.
    expect(seen.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
    await page.close();
  });

  it('a series the upstream cannot give says so, with no line drawn', async () => {
    const f = await FakeUpstream.start();
    f.set('chart', { mode: 'status', status: 500 });
    const a = await App.start({ env: f.env() });
    try {
      const page = await newPage();
      const frame = await framedWidget(page, host, `${a.url}/widgets/chart?symbol=oil&range=3mo`);
      await expect.poll(() => frame.textContent('[data-f="cross"]')).toBe(STRINGS.en.chartUnavailable);
      expect(await frame.getAttribute('.frame path', 'd')).toBe('');
      expect(await frame.textContent('[data-f="hi"]')).toBe('');
      await page.close();
    } finally {
      await a.stop();
      await f.close();
    }
  });

  it('1D of gold is the first-party intraday series', async () => {
    const page = await newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${app.url}/widgets/chart?range=1d`);
    await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/intraday?symbol=xau&hours=24'))).toBe(true);
    expect(requests.some((u) => u.includes('/api/v1/chart'))).toBe(false);
    await page.close();
  });

  it('names its line: the daily spot bars where they cover the range, COMEX futures (in its language) where they do not; each request asks from the window’s start', async () => {
    // The service's calendar on Friday 17 April 2026; the spot bars imported from 1 March, real rows of the broker's file.
    const dates = fixtureText('gold-daily-ohlc-usd.csv')
      .split(/\r?\n/)
      .map((line) => line.split(',')[0])
      .filter((d) => d >= '2026-03-01' && d <= '2026-04-16');
    const f = await FakeUpstream.start();
    f.onChart(realChartHandler());
    const a = await App.start({
      env: { ...f.env(), ...marketClockAt(Date.parse('2026-04-17T10:00:00-04:00')) },
      dataDir: await dataDirWithBars(dates),
    });
    const page = await newPage();
    const seen = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    try {
      // 1M (from 17 March): the spot bars cover it; the line is their closes from that date, and says so.
      let frame = await framedWidget(page, host, `${a.url}/widgets/chart?range=1mo&locale=de-DE`);
      // The imported closes, then today's session, recorded from the spot price the page's headline served.
      const today = (await a.json('/api/v1/spot?compact=1')).body.spot_usd_oz;
      const closes = [...fixtureBars(dates.filter((d) => d >= '2026-03-17')).map((b) => b.c), today];
      await frame.waitForSelector('.frame path[d^="M"]');
      expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)).toHaveLength(closes.length);
      expect(await frame.textContent('[data-f="hi"]')).toBe(
        new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD' }).format(Math.max(...closes)),
      );
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.de.lineSpot} · USD/${STRINGS.de.abbrOz}`);
      expect(requests.some((u) => u.endsWith('/api/v1/history?series=spot&symbol=xau&from=2026-03-17'))).toBe(true);
      expect(requests.some((u) => u.includes('/api/v1/chart'))).toBe(false);
      // 3M reaches back before the first bar: the futures bars of the range, named as futures beside the spot headline.
      await frame.click('button[data-range="3mo"]');
      await expect.poll(() => requests.some((u) => u.includes('/api/v1/chart?symbol=xau&range=3mo'))).toBe(true);
      await expect.poll(() => frame.textContent('[data-f="line"]')).toBe(`${STRINGS.de.lineFutures} · USD/${STRINGS.de.abbrOz}`);
      expect(requests.filter((u) => u.includes('/api/v1/history') && !u.includes('from='))).toEqual([]);
      // And a page opened on that range says it from the start, with no script at all.
      const plain = await browser.newPage({ javaScriptEnabled: false });
      await plain.goto(`${a.url}/widgets/chart?range=3mo&locale=ja-JP`);
      expect(await plain.textContent('[data-f="line"]')).toBe(`${STRINGS.ja.lineFutures} · USD/${STRINGS.ja.abbrOz}`);
      await plain.close();
      // In euros per gram, the futures come from the history endpoint, converted, from the window's start only.
      frame = await framedWidget(page, host, `${a.url}/widgets/chart?range=1y&locale=de-DE&currency=EUR&unit=gram`);
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.de.lineFutures} · EUR/${STRINGS.de.abbrGram}`);
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=futures&from=2025-04-16&currency=EUR&unit=gram'))).toBe(true);
      expect(seen.errors).toEqual([]);
    } finally {
      await page.close();
      await a.stop();
      await f.close();
    }
  });

  it('2016–2019 imported plus a week recorded: the week is spot, three months is futures (the widget and the landing alike)', async () => {
    // The service's calendar on Thursday 16 April 2026; real rows of the broker's files.
    const f = await FakeUpstream.start();
    f.onChart(realChartHandler());
    const a = await App.start({
      env: { ...f.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')), UPSTREAM_TIMEOUT_MS: '10000' },
      dataDir: await dataDirWithBars([...fixtureDates('2016-06-01', '2019-12-31'), ...fixtureDates('2026-04-09', '2026-04-15')]),
    });
    const page = await newPage();
    const seen = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    try {
      const frame = await framedWidget(page, host, `${a.url}/widgets/chart?range=3mo&locale=en-US`);
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.en.lineFutures} · USD/${STRINGS.en.abbrOz}`);
      await expect.poll(() => requests.some((u) => u.includes('/api/v1/chart?symbol=xau&range=3mo&interval=1d'))).toBe(true);
      // Drawn: the futures closes of the three months, not a handful of spot bars.
      await frame.waitForSelector('.frame path[d^="M"]');
      expect((await frame.getAttribute('.frame path', 'd'))!.match(/[ML]/g)!.length).toBeGreaterThan(40);
      await frame.click('button[data-range="5d"]');
      await expect.poll(() => frame.textContent('[data-f="line"]')).toBe(`${STRINGS.en.lineSpot} · USD/${STRINGS.en.abbrOz}`);
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=spot&symbol=xau&from=2026-04-09'))).toBe(true);
      // The landing's chart says futures over the same three months, and asks from their start.
      await page.goto(`${a.url}/developers`);
      expect(await page.textContent('#mini-chart figcaption')).toBe(CHART_LABELS.daily);
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=futures&from=2026-01-14')), { timeout: 15_000 }).toBe(true);
      // In euros per gram: the same futures, converted, named so, over the same window.
      await page.selectOption('#mini-chart select[name="currency"]', 'EUR');
      await page.selectOption('#mini-chart select[name="unit"]', 'gram');
      await expect.poll(() => page.textContent('#mini-chart figcaption')).toBe(chartLabel('daily', { currency: 'EUR', unit: 'gram' }));
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=futures&from=2026-01-14&currency=EUR&unit=gram'))).toBe(true);
      await page.waitForSelector('#mini-chart canvas', { timeout: 30_000 });
      expect(await page.locator('#mini-chart [role="status"]').count()).toBe(0);
      expect(seen.errors).toEqual([]);
    } finally {
      await page.close();
      await a.stop();
      await f.close();
    }
  }, 120_000);

  it('a week missing inside a month of spot bars is drawn as a gap, not one straight line across it', async () => {
    // Friday 17 April 2026; every session since 1 March but the week of 23 March (five sessions: still spot, by the rule).
    const dates = fixtureDates('2026-03-02', '2026-04-16').filter((d) => d < '2026-03-23' || d > '2026-03-27');
    const f = await FakeUpstream.start();
    f.onChart(realChartHandler());
    const a = await App.start({
      env: { ...f.env(), ...marketClockAt(Date.parse('2026-04-17T10:00:00-04:00')) },
      dataDir: await dataDirWithBars(dates),
    });
    const page = await newPage();
    try {
      const frame = await framedWidget(page, host, `${a.url}/widgets/chart?range=1mo&locale=en-US`);
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.en.lineSpot} · USD/${STRINGS.en.abbrOz}`);
      await frame.waitForSelector('.frame path[d^="M"]');
      const d = (await frame.getAttribute('.frame path', 'd'))!;
      // Two runs of line: up to Friday 20 March, and again from Monday 30 March; the gap spans a week and more of the width.
      const moves = [...d.matchAll(/M([\d.]+) /g)].map((m) => Number(m[1]));
      expect(moves).toHaveLength(2);
      const before = [...d.slice(0, d.lastIndexOf('M')).matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1])).pop()!;
      expect(moves[1] - before).toBeGreaterThan((9 / 31) * 1000);
    } finally {
      await page.close();
      await a.stop();
      await f.close();
    }
  });

  it('MAX draws the World Bank’s monthly averages from 1960, labelled, in the widget and on the landing', async () => {
    const page = await newPage();
    const seen = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    try {
      let frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=max&locale=en-US`);
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.en.lineMonthly} · USD/${STRINGS.en.abbrOz}`);
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=monthly&symbol=xau'))).toBe(true);
      await frame.waitForSelector('.frame path[d^="M"]');
      expect(await frame.textContent('[data-f="t0"]')).toContain('1960');
      frame = await framedWidget(page, host, `${app.url}/widgets/chart?range=max&locale=en-US&currency=EUR&unit=gram`);
      expect(await frame.textContent('[data-f="line"]')).toBe(`${STRINGS.en.lineMonthly} · EUR/${STRINGS.en.abbrGram}`);
      await expect.poll(() => requests.some((u) => u.endsWith('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram'))).toBe(true);
      await page.goto(`${app.url}/developers`);
      await page.click('#mini-chart button[data-range="max"]');
      await expect.poll(() => page.textContent('#mini-chart figcaption')).toBe(CHART_LABELS.monthly);
      await page.waitForSelector('#mini-chart canvas', { timeout: 30_000 });
      expect(await page.locator('#mini-chart [role="status"]').count()).toBe(0);
      // In euros per tola, asked by the page's address: from the currency's first reference rate, as its caption says.
      await page.goto(`${app.url}/developers?currency=EUR&unit=tola`);
      await page.click('#mini-chart button[data-range="max"]');
      const eur = await app.json('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=tola');
      const since = eur.body.points[0].d.slice(0, 4);
      await expect.poll(() => page.textContent('#mini-chart figcaption')).toBe(chartLabel('monthly', { currency: 'EUR', unit: 'tola' }, since));
      expect(requests.some((u) => u.endsWith('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=tola'))).toBe(true);
      expect(seen.errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('hostile options render a safe widget', () => {
  const hostile = [
    'currency=%3Cscript%3Ealert(1)%3C/script%3E',
    'theme=javascript:alert(1)',
    'locale=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E',
    'unit=%3Cb%3E&silver=%3Cscript%3E',
    `currency=${'A'.repeat(5000)}`,
    'amount=1e400&direction=%3Cx%3E&karat=99',
  ];
  // One page navigated from case to case: a new page costs Chromium a renderer process of its own.
  let page: Page;
  const dialogs: string[] = [];
  beforeAll(async () => {
    page = await browser.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  afterAll(() => page?.close());
  for (const q of hostile) {
    for (const name of ['price', 'converter', 'chart']) {
      it(`${name}?${q.slice(0, 40)}`, async () => {
        dialogs.length = 0;
        const res = await page.goto(`${app.url}/widgets/${name}?${q}`);
        expect(res?.status()).toBe(200);
        await sleep(200);
        expect(dialogs).toEqual([]);
        expect(await page.$$eval('script', (s) => s.length)).toBe(2);
        expect(await page.$$eval('img', (s) => s.length)).toBe(0);
        expect(['light', 'dark', 'auto']).toContain(await page.getAttribute('html', 'data-theme'));
      });
    }
  }
});

describe('converter', () => {
  it('round-trips money → grams → money within rounding', async () => {
    const page = await newPage();
    const seen = watch(page);
    await page.goto(`${app.url}/widgets/converter?currency=EUR&unit=gram&amount=1000&locale=en-US`);
    await page.fill('#gw-amount', '1000');
    await expect.poll(() => page.textContent('output')).toMatch(/^€1,000\.00 is the metal value of [\d.,]+ g of 24k gold$/);
    const grams = Number((await page.textContent('output'))!.match(/value of ([\d.,]+) g/)![1].replace(/,/g, ''));
    await page.selectOption('#gw-direction', 'gold-to-money');
    await page.fill('#gw-amount', String(grams));
    await expect.poll(() => page.textContent('output')).toMatch(/^Metal value of .*: €/);
    const back = Number((await page.textContent('output'))!.match(/: €([\d.,]+)$/)![1].replace(/,/g, ''));
    // Grams are shown to 4 decimals: 0.00005 g of error is worth well under a cent at any gold price so far.
    expect(Math.abs(back - 1000)).toBeLessThanOrEqual(0.01);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('converts on the server with no JavaScript, karat and fineness applied, and says it is the metal value', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/widgets/converter?currency=USD&unit=oz&amount=1&direction=gold-to-money&karat=18`);
    const api = await app.json('/api/v1/spot?compact=1');
    const dollars = async () => Number((await page.textContent('output'))!.match(/: \$([\d.,]+)$/)![1].replace(/,/g, ''));
    expect(Math.abs((await dollars()) - (api.body.spot_usd_oz * 18) / 24)).toBeLessThanOrEqual(0.005);
    expect(await page.textContent('.note')).toMatch(/not a shop’s price: dealers and jewellers sell above it and buy below it/);
    await page.selectOption('#gw-purity', '22k');
    await page.click('button[type=submit]');
    await page.waitForURL(/fineness=22k/);
    expect(Math.abs((await dollars()) - (api.body.spot_usd_oz * 22) / 24)).toBeLessThanOrEqual(0.005);
    // Silver in sterling, by the widget's `fineness` option.
    await page.goto(`${app.url}/widgets/converter?currency=USD&unit=oz&amount=1&direction=gold-to-money&metal=silver&fineness=0.925`);
    expect(await page.$eval('#gw-purity', (s) => (s as HTMLSelectElement).value)).toBe('925');
    expect(Math.abs((await dollars()) - api.body.silver_usd_oz * 0.925)).toBeLessThanOrEqual(0.005);
    await context.close();
  });

  it('is usable from the keyboard with labelled controls', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/widgets/converter`);
    for (const id of ['gw-amount', 'gw-direction', 'gw-currency', 'gw-unit', 'gw-metal', 'gw-purity']) {
      expect(await page.$eval(`label[for="${id}"]`, (l) => l.textContent?.trim().length)).toBeGreaterThan(0);
    }
    await page.focus('#gw-amount');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('250');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('gw-direction');
    await expect.poll(() => page.textContent('output')).toMatch(/^\$250\.00 is the metal value of /);
    expect(await page.getAttribute('output', 'aria-live')).toBe('polite');
    await page.close();
  });
});

describe('honest states', () => {
  it('stale: the badge shows with its age, the last real price stays', async () => {
    const f = await FakeUpstream.start();
    f.set('quotes', { mode: 'refuse' });
    const a = await App.start({ env: { ...f.env(), CACHE_TTL_S: '1' } });
    try {
      await a.json('/api/v1/spot?compact=1');
      f.set('gold', { mode: 'refuse' });
      await sleep(1200);
      const page = await newPage();
      await page.goto(`${a.url}/widgets/price`);
      const badge = page.locator('[data-f="badge"]');
      await expect.poll(() => badge.isVisible()).toBe(true);
      expect(await badge.textContent()).toMatch(/^Stale · \d+ days? ago$/);
      expect(await page.textContent('[data-f="price"]')).toMatch(/\$4,392\.00/);
      await page.close();
    } finally {
      await a.stop();
      await f.close();
    }
  });

  it('never seen: "unavailable" and no number anywhere', async () => {
    const f = await FakeUpstream.start();
    f.set('gold', { mode: 'status', status: 500 }).set('quotes', { mode: 'status', status: 500 });
    const a = await App.start({ env: f.env() });
    try {
      for (const name of ['price', 'converter']) {
        const page = await newPage();
        await page.goto(`${a.url}/widgets/${name}?silver=1&ratio=1`);
        await sleep(300);
        // The price widget as a whole; the converter's result and rate lines (its form fields hold the reader's own numbers).
        const shown =
          name === 'price' ? (await page.textContent('main'))! : `${await page.textContent('output')} ${await page.textContent('[data-f="rate"]')}`;
        expect(shown).toMatch(/unavailable/i);
        expect(shown).not.toMatch(/\d/);
        await page.close();
      }
    } finally {
      await a.stop();
      await f.close();
    }
  });
});

describe('framing and caching headers', () => {
  it('widget pages may be framed by anyone and are cached for their data’s TTL; other pages refuse framing', async () => {
    for (const [name, maxAge] of [
      ['price', 30],
      ['converter', 30],
      ['chart', 60],
    ] as const) {
      const res = await app.get(`/widgets/${name}`);
      await res.arrayBuffer();
      expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
      expect(res.headers.get('x-frame-options')).toBeNull();
      expect(res.headers.get('cache-control')).toBe(`public, max-age=${maxAge}`);
      expect(res.headers.get('cdn-cache-control')).toBe(`max-age=${maxAge}, stale-while-revalidate=${maxAge}`);
      const html = await (await app.get(`/widgets/${name}`)).text();
      const script = html.match(/<script type="module" src="(\/w\/[^"]+)"/)![1];
      expect(script).toMatch(new RegExp(`^/w/${name}\\.[A-Z0-9]{8}\\.js$`));
      const js = await app.get(script);
      await js.arrayBuffer();
      expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/docs', '/api/v1/spot', '/llms.txt']) {
      const res = await app.get(path);
      await res.arrayBuffer();
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
    const embed = await app.get('/embed.js');
    await embed.arrayBuffer();
    expect(embed.headers.get('cache-control')).toBe('public, max-age=3600');
  });
});

describe('weight budgets (gzip, as downloaded in Chromium)', () => {
  // The chart's own budget is what it loads before a reader reaches for it (its first frame); with
  // the library, loaded when a pointer comes, it is `chart+library`.
  const budgets: Record<string, { js: number; html: number }> = {
    price: { js: 10_000, html: 15_000 },
    converter: { js: 15_000, html: 15_000 },
    chart: { js: 10_000, html: 15_000 },
    'chart+library': { js: 75_000, html: 15_000 },
  };
  for (const [key, budget] of Object.entries(budgets)) {
    const [name, library] = key.split('+');
    it(`${key}: JS ≤ ${budget.js / 1000} KB, HTML ≤ ${budget.html / 1000} KB`, async () => {
      const page = await newPage();
      await page.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'accept-encoding': 'gzip' } }));
      const sizes: { type: string; bytes: number; url: string }[] = [];
      page.on('requestfinished', async (req) => {
        const s = await req.sizes();
        sizes.push({ type: req.resourceType(), bytes: s.responseBodySize, url: req.url() });
      });
      const frame = await framedWidget(page, host, `${app.url}/widgets/${name}`);
      await page.waitForLoadState('networkidle');
      if (library) {
        await frame.hover('[data-f="chart"]');
        await frame.waitForSelector('canvas');
        await page.waitForLoadState('networkidle');
        await expect.poll(() => sizes.filter((s) => s.type === 'script').length).toBe(2);
      }
      const js = sizes.filter((s) => s.type === 'script').reduce((a, s) => a + s.bytes, 0);
      const doc = sizes.filter((s) => s.type === 'document').reduce((a, s) => a + s.bytes, 0);
      expect(js).toBeGreaterThan(0);
      expect(js, JSON.stringify(sizes)).toBeLessThanOrEqual(budget.js);
      expect(doc).toBeLessThanOrEqual(budget.html);
      // Nothing from the framework runtime is loaded.
      expect(sizes.filter((s) => s.url.includes('/_next/'))).toEqual([]);
      await page.close();
    });
  }

  it('embed.js ≤ 2 KB gzip', async () => {
    const res = await fetch(`${app.url}/embed.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const { gzipSync } = await import('node:zlib');
    const body = Buffer.from(await res.arrayBuffer());
    expect(gzipSync(body).length).toBeLessThanOrEqual(2_000);
  });
});
