import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { daysBefore } from '@/lib/calendar/dates';
import { rangeSeries } from '@/widgets/chart';
import { STRINGS } from '@/widgets/i18n';
import { PRICE_CHART_RANGES } from '@/widgets/kinds';
import { App, ROOT } from '../support/app';
import { dataDirWithBars, fixtureDates } from '../support/bars';
import { launchBrowser, releaseBrowser, seriousViolations, watch } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';
import { marketClockAt } from '../support/market';
import { realChartHandler } from '../support/yahoo';

// The price pages' chart (decisions §27) as a visitor meets it, in real Chromium: the page's section, the
// built script (public/w/price-chart.*.js) that mounts the chart into it when it is wanted, each range's
// request and caption, the change written from the drawn line, the crosshair, MAX's logarithmic scale and
// `?range=`. The page is the smallest one holding what a price page holds for its chart: the section, with
// its fixed height, and the script.

/** The day the service's clock (and the page's) reads: the recorded daily rows end on it. */
const NOW = Date.parse('2026-04-16T11:00:00-04:00');
const TODAY = '2026-04-16';
const t = STRINGS.en;

let fake: FakeUpstream;
let app: App;
let browser: Browser;
let script: string;
/** Spot's euros per dollar, which the page writes on the chart's section for its 1D line (`data-fx-rate`). */
let rate: number;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // Gold's spot bars for every session since January: they cover a month, not six (lib/series/coverage.ts).
  const dataDir = await dataDirWithBars(fixtureDates('2026-01-02', TODAY));
  app = await App.start({ env: { ...fake.env(), ...marketClockAt(NOW) }, dataDir });
  browser = await launchBrowser();
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'widgets/manifest.json'), 'utf8')) as Record<string, string>;
  script = manifest['price-chart'];
  rate = (await app.json('/api/v1/spot?currency=EUR&unit=gram&compact=1')).body.fx_rate;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
  await fake?.close();
});

/**
 * A page of the app's origin holding the chart's section (EUR per gram of gold, in English, 1Y unless the URL says), with
 * the server's plan when given, and spot's rate unless the page has none (`fxRate` null: no price was ever seen).
 */
function pageHtml(above = 0, plan?: object, fxRate: number | null = rate): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gold price in EUR per gram</title>
<meta name="viewport" content="width=device-width"><style>body{margin:0;font:16px system-ui;background:#fffdf7;color:#1d1a12}main{max-width:760px;margin:0 auto;padding:8px}</style></head>
<body><main><h1>Gold price in euros per gram</h1><div style="height:${above}px"></div>
<section id="chart" data-metal="gold" data-currency="EUR" data-unit="gram" data-lang="en" data-range="1y"${plan ? ` data-plan='${JSON.stringify(plan)}'` : ''}${fxRate === null ? '' : ` data-fx-rate="${fxRate}"`} style="height:420px" aria-label="Chart"><p>Chart</p></section>
<p id="after">After the chart</p></main>
<script type="module" src="${script}"></script></body></html>`;
}

/** Opens the page at `query` with its clock at NOW; records every request it makes. */
async function openPage(
  query = '',
  above = 0,
  plan?: object,
  fxRate?: number | null,
): Promise<{ page: Page; requests: string[]; seen: ReturnType<typeof watch> }> {
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  await page.clock.setFixedTime(NOW);
  const seen = watch(page);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.route(`${app.url}/gold/eur/gram*`, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: pageHtml(above, plan, fxRate) }),
  );
  await page.goto(`${app.url}/gold/eur/gram${query}`);
  return { page, requests, seen };
}

const drawn = (page: Page) => page.getAttribute('#chart', 'data-drawn');
const text = (page: Page, selector: string) => page.textContent(`#chart ${selector}`);

/** Calendar days each daily range reaches back from today: the window its request asks for. */
const DAYS = { '5d': 7, '1mo': 31, '6mo': 183, '1y': 366, '5y': 1827, '10y': 3653 } as const;
/** How the change of each range is said in English. */
const OVER = {
  '5d': 'over 5 days',
  '1mo': 'over 1 month',
  '6mo': 'over 6 months',
  '1y': 'over 1 year',
  '5y': 'over 5 years',
  '10y': 'over 10 years',
} as const;
const pct = (v: number) =>
  new Intl.NumberFormat('en', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v / 100);

describe('the price pages’ chart', () => {
  it('each range asks for its own series and window, names it, and writes its change from the series’ first and last close', async () => {
    const { page, requests, seen } = await openPage();
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1y');
    const api = () => requests.filter((u) => u.includes('/api/v1/')).map((u) => u.slice(app.url.length));
    for (const range of ['1d', '5d', '1mo', '6mo', '1y', '5y', '10y', 'max'] as const) {
      await page.click(`#chart button[data-range="${range}"]`);
      await expect.poll(() => drawn(page)).toBe(range);
      expect(await page.getAttribute(`#chart button[data-range="${range}"]`, 'aria-pressed')).toBe('true');
      expect(await page.locator('#chart button[aria-pressed="true"][data-range]').count()).toBe(1);
      // The address names the range shown.
      expect(new URL(page.url()).searchParams.get('range')).toBe(range);
      const asked = api();
      const caption = await text(page, '.pc-caption');
      if (range === '1d') {
        // The recorded 2-minute series is USD per troy ounce: drawn in euros per gram at the page's rate, and said so.
        expect(asked).toContain('/api/v1/intraday?symbol=xau&hours=24');
        expect(caption).toBe(`${t.lineIntraday} · EUR/${t.abbrGram} at the current exchange rate`);
        continue;
      }
      if (range === 'max') {
        const url = '/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram';
        expect(asked).toContain(url);
        expect(caption).toBe(`${t.lineMonthly} · EUR/${t.abbrGram}`);
        const points: { d: string; c: number }[] = (await app.json(url)).body.points;
        expect(await text(page, '.pc-change')).toBe(`${pct((points.at(-1)!.c / points[0].c - 1) * 100)} since ${points[0].d.slice(0, 4)}`);
        continue;
      }
      // The page gave no plan: the script counts no window as covered by spot bars, and draws the COMEX futures,
      // in euros per gram, from the window's first day.
      const url = `/api/v1/history?series=futures&from=${daysBefore(TODAY, DAYS[range])}&currency=EUR&unit=gram`;
      expect(asked).toContain(url);
      expect(caption).toBe(`${t.lineFutures} · EUR/${t.abbrGram}`);
      const points: { c: number }[] = (await app.json(url)).body.points;
      expect(points.length).toBeGreaterThan(1);
      expect(await text(page, '.pc-change')).toBe(`${pct((points.at(-1)!.c / points[0].c - 1) * 100)} ${OVER[range]}`);
    }
    // Only what each range draws was asked: never a whole series without its window.
    expect(api().filter((u) => u.startsWith('/api/v1/history') && !u.includes('from=') && !u.includes('series=monthly'))).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.failed).toEqual([]);
    await page.close();
  });

  it('1D on a page with no rate (no price ever seen): nothing drawn in dollars under a euro caption, the chart says it is unavailable', async () => {
    const { page, seen } = await openPage('?range=1d', 0, undefined, null);
    await expect.poll(() => text(page, '.pc-cross'), { timeout: 20_000 }).toBe(t.chartUnavailable);
    expect(await drawn(page)).toBeNull();
    expect(await page.getAttribute('#chart .pc-plot', 'role')).toBe('status');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('?range=5y opens on five years; a range the chart does not offer opens on the section’s', async () => {
    let { page, requests } = await openPage('?range=5y');
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('5y');
    expect(await page.getAttribute('#chart button[data-range="5y"]', 'aria-pressed')).toBe('true');
    expect(requests.some((u) => u.includes(`/api/v1/history?series=futures&from=${daysBefore(TODAY, 1827)}&currency=EUR&unit=gram`))).toBe(true);
    expect(requests.some((u) => u.includes(`from=${daysBefore(TODAY, 366)}`))).toBe(false);
    await page.close();
    ({ page, requests } = await openPage('?range=7w'));
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1y');
    await page.close();
  });

  it('MAX offers a logarithmic scale, and only MAX', async () => {
    const { page } = await openPage('?range=max');
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('max');
    const toggle = page.locator('#chart button.pc-log');
    expect(await toggle.isVisible()).toBe(true);
    expect(await toggle.textContent()).toBe(t.logScale);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getAttribute('#chart', 'data-scale')).toBe('linear');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    // The library's own price scale now says logarithmic (the library comes as the pointer reaches the chart, and
    // takes over from the first frame when it has loaded).
    await expect.poll(() => page.getAttribute('#chart', 'data-scale'), { timeout: 20_000 }).toBe('log');
    await toggle.click();
    expect(await page.getAttribute('#chart', 'data-scale')).toBe('linear');
    await page.click('#chart button[data-range="1y"]');
    expect(await toggle.isVisible()).toBe(false);
    await page.close();
  });

  it('the crosshair shows a date and one of the drawn closes, in euros per gram', async () => {
    const { page } = await openPage('?range=6mo');
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('6mo');
    const points: { c: number }[] = (await app.json(`/api/v1/history?series=futures&from=${daysBefore(TODAY, 183)}&currency=EUR&unit=gram`)).body
      .points;
    const bb = (await page.locator('#chart .pc-plot').boundingBox())!;
    let nudge = 0;
    await expect
      .poll(async () => {
        await page.mouse.move(bb.x + bb.width / 2 + (nudge++ % 2), bb.y + bb.height / 2);
        return text(page, '.pc-cross');
      })
      .toMatch(/^\w{3} \d{1,2}, \d{4} · €[\d,]+\.\d{4}$/);
    const shown = Number((await text(page, '.pc-cross'))!.split('€')[1].replace(/,/g, ''));
    expect(points.some((p) => Math.abs(p.c - shown) < 0.00006)).toBe(true);
    await page.close();
  });

  it('draws what the server planned: a month covered by the spot bars is spot, named so, its change from the spot closes', async () => {
    // The plan priceChartPlan makes from this store (tests/unit/widgets/chart-label.test.ts): the spot bars cover 5D and 1M.
    const series = Object.fromEntries(
      PRICE_CHART_RANGES.map((r) => [r, rangeSeries('xau', r, r === '5d' || r === '1mo', TODAY, { currency: 'EUR', unit: 'gram' }, t)]),
    );
    const { page, requests, seen } = await openPage('?range=1m', 0, { series });
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1mo');
    const url = `/api/v1/history?series=spot&symbol=xau&from=${daysBefore(TODAY, 31)}&currency=EUR&unit=gram`;
    expect(requests).toContain(`${app.url}${url}`);
    expect(await text(page, '.pc-caption')).toBe(`${t.lineSpot} · EUR/${t.abbrGram}`);
    const points: { c: number }[] = (await app.json(url)).body.points;
    expect(points.length).toBeGreaterThan(10);
    expect(await text(page, '.pc-change')).toBe(`${pct((points.at(-1)!.c / points[0].c - 1) * 100)} over 1 month`);
    await page.click('#chart button[data-range="6mo"]');
    await expect.poll(() => drawn(page)).toBe('6mo');
    expect(await text(page, '.pc-caption')).toBe(`${t.lineFutures} · EUR/${t.abbrGram}`);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('the chart widget draws with the same parts: its MAX writes the change since the series’ first year, and offers the logarithmic scale', async () => {
    const page = await browser.newPage({ viewport: { width: 460, height: 420 } });
    const seen = watch(page);
    await page.goto(`${app.url}/widgets/chart?range=max&locale=en-US&currency=EUR&unit=gram`);
    const points: { d: string; c: number }[] = (await app.json('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram')).body.points;
    await expect
      .poll(() => page.textContent('[data-f="change"]'), { timeout: 20_000 })
      .toBe(`${pct((points.at(-1)!.c / points[0].c - 1) * 100)} since ${points[0].d.slice(0, 4)}`);
    const toggle = page.locator('[data-f="log"]');
    expect(await toggle.isVisible()).toBe(true);
    await toggle.click();
    await expect.poll(() => page.getAttribute('[data-f="chart"]', 'data-scale'), { timeout: 20_000 }).toBe('log');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await page.click('button[data-range="1y"]');
    expect(await toggle.isVisible()).toBe(false);
    await expect.poll(() => page.getAttribute('[data-f="chart"]', 'data-scale')).toBe('linear');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('the page’s first script is tiny; the chart’s code comes when the section comes near, and stays in the section’s height; axe finds nothing serious', async () => {
    const { page, requests, seen } = await openPage('', 3000);
    const chunk = (u: string) => /\/w\/(chunk|price-chart-view)\.[A-Z0-9]+\.js$/.test(u);
    // The first script alone is small (gzip, as served).
    const entry = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    const { gzipSync } = await import('node:zlib');
    expect(gzipSync(Buffer.from(await entry.arrayBuffer())).length).toBeLessThanOrEqual(1_000);
    // Far below the fold, nothing of the chart is asked for.
    await page.waitForLoadState('networkidle');
    expect(requests.filter(chunk)).toEqual([]);
    expect(requests.filter((u) => u.includes('/api/v1/'))).toEqual([]);
    expect(await page.getAttribute('#chart', 'data-mounted')).toBeNull();
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe('1y');
    expect(requests.some(chunk)).toBe(true);
    // Drawn first as a plain line of the real points; the chart library (a chunk of its own) only once a pointer
    // comes to the chart, and then it takes over in the same box.
    const library = () => requests.filter((u) => /\/w\/chunk\.[A-Z0-9]+\.js$/.test(u));
    expect(library()).toEqual([]);
    expect(await page.getAttribute('#chart .pc-plot svg.frame path', 'd')).toMatch(/^M[\d.]+ [\d.]+L/);
    await page.hover('#chart .pc-plot');
    await expect.poll(() => page.locator('#chart .pc-plot canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(library().length).toBe(1);
    expect(await page.locator('#chart .pc-plot svg.frame').count()).toBe(0);
    // Mounted in the section's own height (which the page holds before it comes): nothing below it moves.
    expect(await page.locator('#chart').evaluate((s) => [s.getBoundingClientRect().height, s.scrollHeight <= s.clientHeight])).toEqual([420, true]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
