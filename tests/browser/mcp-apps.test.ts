import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import pkg from '../../package.json';
import { answer } from '@/lib/mcp/tool';
import { NOTHING, unavailable } from '@/lib/sources/unavailable';
import { STRINGS } from '@/widgets/i18n';
import { App, ROOT } from '../support/app';
import { hostState, HOST_ORIGIN, openHost, VIEW_ORIGIN, type Hosted } from '../support/apps';
import { dataDirWithBars } from '../support/bars';
import { launchBrowser, releaseBrowser, watch } from '../support/browser';
import { pagesInOneRenderer } from '../support/renderer-pages';
import { FakeUpstream } from '../support/fake-upstream';
import { marketClockAt } from '../support/market';
import { mcpClient } from '../support/mcp';
import { realChartHandler } from '../support/yahoo';

// The MCP Apps views (decisions §22) as a host that renders them shows them, in Chromium: the host
// side is the ext-apps package's own AppBridge, each view is the built app's resources/read answer
// in a sandboxed iframe under `connect-src 'none'`, and every figure is a real result of the built
// app's /mcp. A view completes the handshake, draws the result in the host's theme and language,
// asks the host (never the network) for another range, and says "unavailable" without a number.

let fake: FakeUpstream;
let app: App;
let client: Client;
let browser: Browser;
const newPage = pagesInOneRenderer(() => browser);
const docs: Record<string, string> = {};

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // A trading Thursday whose previous session has a real imported bar, so the price has a change to show.
  const dataDir = await dataDirWithBars(['2026-04-15']);
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')) }, dataDir });
  client = await mcpClient(app);
  for (const name of ['price', 'chart']) {
    const { contents } = await client.readResource({ uri: `ui://gold/${name}` });
    docs[name] = (contents[0] as { text: string }).text;
  }
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await client?.close();
  await app?.stop();
  await fake?.close();
});

const GERMAN_DARK = { theme: 'dark' as const, locale: 'de-DE', timeZone: 'Europe/Berlin' };
const de = STRINGS.de;
const DARK_BG = 'rgb(23, 21, 15)';
const LIGHT_BG = 'rgb(255, 253, 247)';

async function call(name: string, args: Record<string, unknown>): Promise<any> {
  return client.callTool({ name, arguments: args });
}

/** Opens the host with one view; the view's frame once the handshake is done. */
async function host(page: Page, view: Hosted, hostContext = GERMAN_DARK) {
  const opened = await openHost(page, [view], { hostContext, width: 400 }, (params) => client.callTool(params));
  await expect.poll(async () => (await hostState(page))[0]?.initialized).toBe(true);
  const frame = opened.frames()[0];
  await frame.waitForSelector('[data-f="fresh"]', { state: 'attached' });
  return { ...opened, frame };
}

/** A number as the view's browser writes it: money in `currency` with `decimals`, in the locale. */
function money(frame: Frame, value: number, currency: string, locale: string, decimals = 2): Promise<string> {
  return frame.evaluate(
    ({ value, currency, locale, decimals }) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value),
    { value, currency, locale, decimals },
  );
}

/** The literal words of a template (around its `{placeholders}`), each of which must show. */
const wordsOf = (template: string) =>
  template
    .split(/\{\w+\}/)
    .map((s) => s.trim())
    .filter(Boolean);

describe('the price view under the package’s own host', () => {
  it('completes the handshake and draws a real get_gold_price in German and dark, from nowhere but the host', async () => {
    const args = { currency: 'EUR', unit: 'gram' };
    const result = await call('get_gold_price', args);
    const spot = result.structuredContent;
    expect(spot.change.state).toBe('ok');
    const page = await newPage({ viewport: { width: 440, height: 400 } });
    const seen = watch(page);
    const { frame, requests } = await host(page, { document: docs.price, toolInput: args, toolResult: result });

    expect((await hostState(page))[0].app).toEqual({ name: 'goldapi', version: pkg.version });
    // EUR per gram: the currency's two decimals and two more, in German.
    await expect.poll(() => frame.textContent('[data-f="price"]')).toBe(await money(frame, spot.xau.price, 'EUR', 'de-DE', 4));
    expect(await frame.textContent('[data-f="head"]')).toBe(`${de.gold} · ${de.perGram}`);
    const change = (await frame.textContent('[data-f="change"]'))!;
    expect(change).toMatch(/^[▲▼▶] [+−-]?/);
    expect(change).toContain(
      await frame.evaluate(
        (pct) =>
          new Intl.NumberFormat('de-DE', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
            pct / 100,
          ),
        spot.change.change_pct,
      ),
    );
    for (const w of wordsOf(de.sinceClose)) expect(change).toContain(w);
    expect(await frame.isVisible('[data-f="change"]')).toBe(true);
    for (const w of wordsOf(de.updated)) expect(await frame.textContent('[data-f="fresh"]')).toContain(w);
    expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir, document.title])).toEqual([
      'de-DE',
      'ltr',
      de.priceTitle,
    ]);
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(DARK_BG);
    // The view reports its size, and the host sized the frame to it.
    expect((await hostState(page))[0].heights.length).toBeGreaterThan(0);

    // The host turns light: the view follows without being reloaded.
    await page.evaluate(() => window.changeContext({ theme: 'light' }));
    await expect.poll(() => frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(LIGHT_BG);

    expect(requests).toEqual([`${HOST_ORIGIN}/`, `${VIEW_ORIGIN}/view/0`]);
    expect(seen.errors).toEqual([]);
    expect(seen.failed).toEqual([]);
    await page.close();
  });

  it('an unavailable result says so as the widget does, with no number', async () => {
    const result = await answer(async () => unavailable('Gold price unavailable: both sources are down and no price has been seen.', NOTHING));
    const page = await newPage();
    const seen = watch(page);
    const { frame } = await host(page, { document: docs.price, toolInput: {}, toolResult: result });
    await expect.poll(() => frame.textContent('[data-f="price"]')).toBe(de.priceUnavailable);
    expect(await frame.textContent('[data-f="fresh"]')).toBe(de.noPrice);
    expect(await frame.isHidden('[data-f="change"]')).toBe(true);
    expect(await frame.textContent('main')).not.toMatch(/\d/);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('the chart view under the package’s own host', () => {
  it('draws a real get_gold_history with its high and low in German and dark; a range button asks the host for the tool again', async () => {
    const result = await call('get_gold_history', { range: '3m' });
    const closes = (points: { c: number }[]) => points.map((p) => p.c);
    const page = await newPage({ viewport: { width: 440, height: 500 } });
    const seen = watch(page);
    const { frame, requests } = await host(page, { document: docs.chart, toolInput: { range: '3m' }, toolResult: result });

    const points = result.structuredContent.points;
    expect(points.length).toBeGreaterThan(20);
    await expect.poll(() => frame.textContent('[data-f="hi"]')).toBe(await money(frame, Math.max(...closes(points)), 'USD', 'de-DE'));
    expect(await frame.textContent('[data-f="lo"]')).toBe(await money(frame, Math.min(...closes(points)), 'USD', 'de-DE'));
    expect(await frame.textContent('[data-f="price"]')).toBe(await money(frame, points[points.length - 1].c, 'USD', 'de-DE'));
    expect(await frame.getAttribute('path', 'd')).toMatch(/^M0 /);
    expect(await frame.textContent('[data-f="head"]')).toBe(de.gold);
    expect(await frame.evaluate(() => [document.documentElement.lang, document.title])).toEqual(['de-DE', de.chartTitle.replace('{name}', de.gold)]);
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(DARK_BG);
    const buttons = () => frame.$$eval('[data-f="ranges"] button', (bs) => bs.map((b) => [b.textContent, b.getAttribute('aria-pressed')]));
    expect(await buttons()).toEqual([
      [de.r1mo, 'false'],
      [de.r3mo, 'true'],
      [de.r1y, 'false'],
      [de.r5y, 'false'],
      [de.rMax, 'false'],
    ]);

    // The value under the pointer, in German.
    await frame.hover('[data-f="chart"] svg', { position: { x: 0, y: 20 } });
    await expect.poll(() => frame.textContent('[data-f="cross"]')).toContain(await money(frame, points[0].c, 'USD', 'de-DE'));

    await frame.click(`[data-f="ranges"] button:text-is("${de.r1y}")`);
    await expect.poll(async () => (await hostState(page))[0].calls).toEqual([{ name: 'get_gold_history', arguments: { range: '1y' } }]);
    const year = (await call('get_gold_history', { range: '1y' })).structuredContent.points;
    expect(year.length).toBeGreaterThan(points.length);
    await expect.poll(() => frame.textContent('[data-f="lo"]')).toBe(await money(frame, Math.min(...closes(year)), 'USD', 'de-DE'));
    expect(await frame.textContent('[data-f="hi"]')).toBe(await money(frame, Math.max(...closes(year)), 'USD', 'de-DE'));
    expect((await buttons()).map(([, pressed]) => pressed)).toEqual(['false', 'false', 'true', 'false', 'false']);

    // MAX: the World Bank's monthly averages since 1960, named so; another range goes back to the series asked.
    await frame.click(`[data-f="ranges"] button:text-is("${de.rMax}")`);
    await expect
      .poll(async () => (await hostState(page))[0].calls.at(-1))
      .toEqual({ name: 'get_gold_history', arguments: { range: 'max', series: 'monthly' } });
    await expect.poll(() => frame.textContent('[data-f="line"]')).toBe(`${de.lineMonthly} · USD/${de.abbrOz}`);
    expect(await frame.textContent('[data-f="t0"]')).toContain('1960');
    expect((await buttons()).map(([, pressed]) => pressed)).toEqual(['false', 'false', 'false', 'false', 'true']);
    await frame.click(`[data-f="ranges"] button:text-is("${de.r1y}")`);
    await expect.poll(async () => (await hostState(page))[0].calls.at(-1)).toEqual({ name: 'get_gold_history', arguments: { range: '1y' } });
    await expect.poll(() => frame.textContent('[data-f="line"]')).toBe(`${de.lineFutures} · USD/${de.abbrOz}`);

    expect(requests).toEqual([`${HOST_ORIGIN}/`, `${VIEW_ORIGIN}/view/0`]);
    expect(seen.errors).toEqual([]);
    expect(seen.failed).toEqual([]);
    await page.close();
  });

  it('draws a real compare_gold_to_asset with both changes; its range button keeps the asset', async () => {
    const args = { symbol: 'sp500', range: '6m' };
    const result = await call('compare_gold_to_asset', args);
    const { gold, asset } = result.structuredContent;
    const page = await newPage({ viewport: { width: 440, height: 500 } });
    const seen = watch(page);
    const { frame } = await host(page, { document: docs.chart, toolInput: args, toolResult: result });
    await expect
      .poll(() => frame.textContent('[data-f="hi"]'))
      .toBe(await money(frame, Math.max(...gold.points.map((p: any) => p.c)), 'USD', 'de-DE'));
    const pct = (v: number) =>
      frame.evaluate(
        (v) =>
          new Intl.NumberFormat('de-DE', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
            v / 100,
          ),
        v,
      );
    expect(await frame.textContent('[data-f="legend"]')).toBe(`${de.gold} ${await pct(gold.change_pct)} · S&P 500 ${await pct(asset.change_pct)}`);
    await frame.click(`[data-f="ranges"] button:text-is("${de.r1mo}")`);
    await expect
      .poll(async () => (await hostState(page))[0].calls)
      .toEqual([{ name: 'compare_gold_to_asset', arguments: { symbol: 'sp500', range: '1m' } }]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('get_gold_intraday: the hours as range buttons, in the locale; with no samples yet it says so, no number', async () => {
    const result = await call('get_gold_intraday', { hours: 12 });
    const page = await newPage();
    const seen = watch(page);
    const toolInfo = { tool: { name: 'get_gold_intraday', inputSchema: { type: 'object' as const } } };
    const { frame } = await host(page, { document: docs.chart, toolInput: { hours: 12 }, toolResult: result }, { ...GERMAN_DARK, toolInfo } as any);
    const hours = (n: number) =>
      frame.evaluate((n) => new Intl.NumberFormat('de-DE', { style: 'unit', unit: 'hour', unitDisplay: 'narrow' }).format(n), n);
    await expect
      .poll(() => frame.$$eval('[data-f="ranges"] button', (bs) => bs.map((b) => [b.textContent, b.getAttribute('aria-pressed')])))
      .toEqual([
        [await hours(6), 'false'],
        [await hours(12), 'true'],
        [await hours(24), 'false'],
        [await hours(48), 'false'],
      ]);
    // The sampler is off in this app: the series has no sample to draw, and the view says so as the widget does.
    expect(result.structuredContent.points ?? []).toEqual([]);
    expect(result.structuredContent.hours).toBe(12);
    expect(await frame.textContent('[data-f="cross"]')).toBe(de.recording.replace('{n}', '0'));
    expect(await frame.textContent('[data-f="price"]')).toBe('');
    await frame.click(`[data-f="ranges"] button:text-is("${await hours(48)}")`);
    await expect.poll(async () => (await hostState(page))[0].calls).toEqual([{ name: 'get_gold_intraday', arguments: { hours: 48 } }]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('names what it draws, as the widget does: COMEX futures, spot, the monthly averages, each in the result’s currency and unit', async () => {
    const label = (key: 'lineFutures' | 'lineSpot' | 'lineMonthly', currency: string, abbr: string) => `${de[key]} · ${currency}/${abbr}`;
    const futures = await call('get_gold_history', { range: '3m' });
    const spot = await call('get_gold_history', { range: '1m', series: 'spot' });
    const compare = await call('compare_gold_to_asset', { symbol: 'sp500', range: '6m' });
    // The World Bank's monthly series in euros per gram, as the built app answers it (the real workbook and rates).
    const converted = await call('get_gold_history', { series: 'monthly', currency: 'EUR', unit: 'gram', range: '5y' });
    expect(converted.structuredContent).toMatchObject({ series: 'monthly', currency: 'EUR', unit: 'gram' });
    // COMEX futures grouped into monthly and weekly bars: named by their series, not as the monthly averages, and drawn.
    const byMonth = await call('get_gold_history', { range: '1y', group: 'month' });
    const byWeek = await call('get_gold_history', { range: '1y', group: 'week' });
    expect([byMonth, byWeek].map((r) => [r.structuredContent.series, r.structuredContent.interval])).toEqual([
      ['futures', 'monthly'],
      ['futures', 'weekly'],
    ]);
    for (const [result, expected, currency, decimals] of [
      [futures, label('lineFutures', 'USD', de.abbrOz), 'USD', 2],
      [spot, label('lineSpot', 'USD', de.abbrOz), 'USD', 2],
      [compare, label('lineFutures', 'USD', de.abbrOz), 'USD', 2],
      [converted, label('lineMonthly', 'EUR', de.abbrGram), 'EUR', 4],
      [byMonth, label('lineFutures', 'USD', de.abbrOz), 'USD', 2],
      [byWeek, label('lineFutures', 'USD', de.abbrOz), 'USD', 2],
    ] as const) {
      const page = await newPage({ viewport: { width: 440, height: 500 } });
      const seen = watch(page);
      const { frame } = await host(page, { document: docs.chart, toolInput: {}, toolResult: result as any });
      await expect.poll(() => frame.textContent('[data-f="line"]')).toBe(expected);
      expect(await frame.isVisible('[data-f="line"]')).toBe(true);
      const points = (result.structuredContent as any).gold?.points ?? (result.structuredContent as any).points;
      expect(points.length).toBeGreaterThan(0);
      expect(await frame.textContent('[data-f="price"]')).toBe(await money(frame, points[points.length - 1].c, currency, 'de-DE', decimals));
      // The line is drawn through every point: its high and low are the closes' own.
      const closes = points.map((p: { c: number }) => p.c);
      expect(await frame.textContent('[data-f="hi"]')).toBe(await money(frame, Math.max(...closes), currency, 'de-DE', decimals));
      expect(await frame.textContent('[data-f="lo"]')).toBe(await money(frame, Math.min(...closes), currency, 'de-DE', decimals));
      expect(await frame.getAttribute('path', 'd')).toMatch(/^M0 /);
      expect(seen.errors).toEqual([]);
      await page.close();
    }
  });

  it('a refused call reads as the widget’s "chart unavailable", with no number', async () => {
    const result = { isError: true, content: [{ type: 'text', text: 'Invalid range: 7y. Valid values: 1m, 3m, 6m, ytd, 1y, 2y, 5y' }] };
    const page = await newPage();
    const seen = watch(page);
    const { frame } = await host(page, { document: docs.chart, toolInput: { range: '7y' }, toolResult: result as any });
    await expect.poll(() => frame.textContent('[data-f="cross"]')).toBe(de.chartUnavailable);
    expect(await frame.textContent('[data-f="price"]')).toBe('');
    expect(await frame.textContent('main')).not.toMatch(/\d/);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

// The picture on /docs/mcp: both views as a host shows them in its answer, light and in English. Every run
// draws it and checks it; `UPDATE_SCREENSHOT=1` also writes it to public/docs/mcp-apps.png.
// The recorded series ends months ago: the page's clock is set a few hours after its last bar, so the
// freshness lines read as they would on a live deployment.
it('docs screenshot: both views drawn in a host, the picture public/docs/mcp-apps.png shows', async () => {
  const [price, history] = [await call('get_gold_price', {}), await call('get_gold_history', { range: '3m' })];
  const page = await browser.newPage({ viewport: { width: 444, height: 640 }, deviceScaleFactor: 1 });
  await page.clock.setFixedTime(Date.parse(history.structuredContent.data_state.as_of) + 5 * 3_600_000);
  const { frames } = await openHost(
    page,
    [
      { document: docs.price, toolInput: {}, toolResult: price, caption: 'Gold is trading at:' },
      { document: docs.chart, toolInput: { range: '3m' }, toolResult: history, caption: 'Over the last three months:' },
    ],
    { hostContext: { theme: 'light', locale: 'en-US', timeZone: 'UTC' }, width: 420 },
    (params) => client.callTool(params),
  );
  await expect.poll(async () => (await hostState(page)).every((v) => v.initialized && v.heights.length)).toBe(true);
  for (const f of frames()) await f.waitForFunction(() => document.querySelector('[data-f="fresh"]')?.textContent);
  const height = await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: 444, height } });
  // A real picture of both views: a PNG of the full width, taller than the two captions alone.
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(444);
  expect(height).toBeGreaterThan(300);
  if (process.env.UPDATE_SCREENSHOT) fs.writeFileSync(path.join(ROOT, 'public', 'docs', 'mcp-apps.png'), png);
  await page.close();
});
