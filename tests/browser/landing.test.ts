import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { App } from '../support/app';
import { launchBrowser, releaseBrowser, watch } from '../support/browser';
import { pagesInOneRenderer } from '../support/renderer-pages';
import { sleep } from '../support/expect';
import { dataDirWithBars } from '../support/bars';
import { FakeUpstream } from '../support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../support/market';
import { realChartHandler } from '../support/yahoo';

// The landing page's chart when history cannot be had, and the icon browsers ask for by name.

let browser: Browser;
const newPage = pagesInOneRenderer(() => browser);
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
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
    const page = await newPage();
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
      const page = await newPage();
      await page.goto(`${app.url}/developers`);
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
    // The 5-year body takes a loaded machine longer than the tests' usual upstream timeout. The service's calendar
    // on the recorded series' last session: the panel draws the 3 months to today, and the recording ends then.
    const clock = marketClockAt(Date.parse('2026-04-16T09:00:00-04:00'));
    const app = await App.start({ env: { ...fake.env(), ...clock, UPSTREAM_TIMEOUT_MS: '10000' } });
    try {
      const page = await newPage();
      await page.goto(`${app.url}/developers`);
      await page.waitForSelector('figure canvas', { timeout: 60_000 });
      expect(await page.locator('figure [role="status"]').count()).toBe(0);
      await page.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 180_000);
});

describe('landing price: the spot change', () => {
  it('shows the change since the previous close with arrow and sign after a recorded session, nothing on a new deployment', async () => {
    const fake = await FakeUpstream.start();
    const clock = { ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')), UPSTREAM_TIMEOUT_MS: '5000' };
    const seeded = await App.start({ env: { ...fake.env(), ...clock }, dataDir: await dataDirWithBars(['2026-04-15']) });
    const fresh = await App.start({ env: { ...fake.env(), ...clock } });
    try {
      const page = await newPage();
      await page.goto(`${seeded.url}/developers`);
      const c = (await seeded.json('/api/v1/spot?compact=1')).body.change;
      expect(c).toMatchObject({ state: 'ok', previous_close_date: '2026-04-15' });
      const text = (await page.textContent('[data-testid="spot-change"]'))!.replace(/\s+/g, ' ');
      const sign = c.change > 0 ? '+' : c.change < 0 ? '−' : '±';
      const word = c.change > 0 ? '▲ Up' : c.change < 0 ? '▼ Down' : '▶ Unchanged';
      const usd = Math.abs(c.change).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
      expect(text).toBe(`${word} ${sign}${usd} (${sign}${Math.abs(c.change_pct).toFixed(2)}%) since the previous close of 2026-04-15`);
      await page.goto(`${fresh.url}/developers`);
      await page.waitForSelector('.price');
      expect(await page.locator('[data-testid="spot-change"]').isVisible()).toBe(false);
      expect(await page.textContent('main')).not.toMatch(/on the day|since the previous close/);
      await page.close();
    } finally {
      await seeded.stop();
      await fresh.stop();
      await fake.close();
    }
  }, 180_000);
});

describe('landing price: kept live by polling (live=0; the stream is tests/browser/live.test.ts)', () => {
  it('follows a new upstream price without a reload every 30 s, a hidden tab asks nothing, an outage shows stale, other errors change nothing', async () => {
    const fake = await FakeUpstream.start();
    // gold-api.com alone, so the price shown is the recording it serves.
    fake.set('quotes', { mode: 'refuse' });
    const app = await App.start({ env: { ...fake.env(), ...marketClockAt(OPEN_DAY), CACHE_TTL_S: '1' } });
    try {
      const page = await newPage();
      // The page's clock is the test's to move; whether the tab is hidden too.
      await page.clock.install();
      await page.addInitScript(() => {
        Object.defineProperty(Document.prototype, 'visibilityState', {
          get: () => ((window as unknown as { hidden?: boolean }).hidden ? 'hidden' : 'visible'),
        });
      });
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/v1/spot')) asked.push(r.url());
      });
      const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
      const served = await page.goto(`${app.url}/developers?live=0`);
      // Cacheable for spot's time (decisions §25), so the page may be a cached copy: the poller asks at once.
      expect(served!.headers()['cache-control']).toMatch(/^public, max-age=\d+$/);
      const first = (await app.json('/api/v1/spot?compact=1')).body.xau.price;
      expect(await page.textContent('[data-f="price"]')).toBe(usd(first));
      await expect.poll(() => asked.length).toBe(1);

      fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
      await sleep(1200); // past the app's 1 s cache
      const next = (await app.json('/api/v1/spot?compact=1')).body.xau.price;
      expect(next).not.toBe(first);
      await page.clock.fastForward(30_000);
      await expect.poll(() => page.textContent('[data-f="price"]')).toBe(usd(next));
      expect(asked).toHaveLength(2);

      await page.evaluate(() => {
        (window as unknown as { hidden?: boolean }).hidden = true;
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await page.clock.fastForward(120_000);
      await page.clock.fastForward(120_000);
      await sleep(500);
      expect(asked).toHaveLength(2);
      // Shown again: it catches up at once rather than at the next turn.
      await page.evaluate(() => {
        (window as unknown as { hidden?: boolean }).hidden = false;
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect.poll(() => asked.length).toBe(3);

      // The upstream goes down: the last real price stays, marked stale.
      fake.set('gold', { mode: 'status', status: 500 });
      await sleep(1200);
      await page.clock.fastForward(30_000);
      await expect.poll(() => page.textContent('[data-f="state"]')).toMatch(/^Stale · last real price, \d+ s old$/);
      expect(asked).toHaveLength(4);
      expect(await page.textContent('[data-f="price"]')).toBe(usd(next));
      expect(await page.getAttribute('[data-f="state"]', 'class')).toBe('badge');
      // An answer that is neither 200 nor 503 (a 4xx with the API's error body, a proxy's 502 page) changes nothing shown.
      const errorBody = await app.json('/api/v1/spot?currency=XXX');
      expect(errorBody.status).toBe(400);
      expect(errorBody.body.data_state).toBeTruthy();
      const shown = await page.textContent('#live');
      for (const [status, contentType, body] of [
        [429, 'application/json', JSON.stringify(errorBody.body)],
        [502, 'text/html', '<h1>Bad gateway</h1>'],
      ] as const) {
        await page.route('**/api/v1/spot*', (route) => route.fulfill({ status, contentType, body }));
        const before = asked.length;
        await page.clock.fastForward(30_000);
        await expect.poll(() => asked.length).toBe(before + 1);
        await sleep(300);
        expect(await page.textContent('#live')).toBe(shown);
        await page.unroute('**/api/v1/spot*');
      }
      await page.close();
    } finally {
      await app.stop();
      await fake.close();
    }
  }, 120_000);
});
