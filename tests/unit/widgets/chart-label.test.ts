import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STRINGS } from '@/widgets/i18n';
import { lineLabel, rangeSeries } from '@/widgets/chart';
import { dataDirWithBars, fixtureDates } from '../../support/bars';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';

// The chart widget names its line (decisions §23, §25): the daily spot bars where they cover the range's window
// (judged by the server from the bars inside it), else COMEX futures, labelled so, in the currency and unit drawn.
// A store that does not answer cannot say what the bars cover: the page then draws futures under the futures label.

const t = STRINGS.en;
const USD_OZ = ` · USD/${t.abbrOz}`;
let fake: FakeUpstream;

/** The stores of the cases: the broker's gold rows for these dates, imported (written before the clock moves, as an operator would). */
const SINCE_JANUARY = fixtureDates('2026-01-02', '2026-04-15');
const CASES = {
  oldPlusWeek: [...fixtureDates('2016-06-01', '2019-12-31'), ...fixtureDates('2026-04-09', '2026-04-15')],
  sinceJanuary: SINCE_JANUARY,
  holed: SINCE_JANUARY.filter((d) => d < '2026-02-02' || d > '2026-02-13'),
};
const dirs = {} as Record<keyof typeof CASES, string>;

beforeAll(async () => {
  for (const [name, dates] of Object.entries(CASES)) dirs[name as keyof typeof CASES] = await dataDirWithBars(dates);
  fake = await FakeUpstream.start();
  for (const [k, v] of Object.entries({ ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')) })) vi.stubEnv(k, v);
});
afterAll(async () => {
  await newProcess();
  vi.unstubAllEnvs();
  await fake?.close();
  for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A process's store and the spot series it holds (both on globalThis), dropped so the next page opens `DATA_DIR` afresh. */
async function newProcess(): Promise<void> {
  const g = globalThis as Record<symbol, unknown>;
  await (g[Symbol.for('goldapi.store')] as { close(): Promise<void> } | undefined)?.close();
  delete g[Symbol.for('goldapi.store')];
  (g[Symbol.for('goldapi.spotSeries')] as Map<unknown, unknown> | undefined)?.clear();
}

/** The widget page of `query`, from the store of one case. */
async function page(store: keyof typeof CASES, query: string): Promise<string> {
  vi.stubEnv('DATA_DIR', dirs[store]);
  await newProcess();
  const { chartPage } = await import('@/widgets/pages');
  return chartPage(new URLSearchParams(query), 'http://t');
}

/** The label the page shows over its first range's line. */
function shown(html: string): string {
  return html.match(/data-f="line"[^>]*>([^<]*)</)![1];
}

/** The per-range series the page hands its script. */
function series(html: string): Record<string, { url: string; line: string; label: string }> {
  const config = JSON.parse(html.match(/<script type="application\/json" id="gw-config">([^<]*)<\/script>/)![1]);
  return config.series;
}

describe('the chart widget page', () => {
  it('2016–2019 imported plus a week recorded: the week is spot; a month, three months and a year are futures, though the first bar is older', async () => {
    const html = await page('oldPlusWeek', 'range=3mo&locale=en-US');
    expect(shown(html)).toBe(t.lineFutures + USD_OZ);
    const s = series(html);
    expect(s['5d']).toMatchObject({ line: 'spot', label: t.lineSpot + USD_OZ });
    for (const r of ['1mo', '3mo', '1y', '5y']) expect(s[r]).toMatchObject({ line: 'futures', label: t.lineFutures + USD_OZ });
    // Each asks only for its window.
    expect(s['5d'].url).toBe('/api/v1/history?series=spot&symbol=xau&from=2026-04-09');
    expect(s['3mo'].url).toBe('/api/v1/chart?symbol=xau&range=3mo&interval=1d');
    expect(s.max).toMatchObject({ line: 'monthly', url: '/api/v1/history?series=monthly&symbol=xau', label: t.lineMonthly + USD_OZ });
  });

  it('every session since January: a month and three months are spot, a year is futures', async () => {
    const s = series(await page('sinceJanuary', 'range=1mo'));
    expect(s['1mo'].line).toBe('spot');
    expect(s['3mo'].line).toBe('spot');
    expect(s['1y'].line).toBe('futures');
  });

  it('two weeks of February missing: three months is futures, the month after the hole is spot', async () => {
    const s = series(await page('holed', 'range=3mo'));
    expect(s['3mo'].line).toBe('futures');
    expect(s['1mo'].line).toBe('spot');
  });

  it('the store not answering: futures, labelled futures; answering again, the spot bars', async () => {
    const html = await page('sinceJanuary', 'range=1mo&locale=en-US');
    expect(shown(html)).toBe(t.lineSpot + USD_OZ);
    const { getStore, StoreDownError } = await import('@/lib/store');
    const store = getStore();
    const allBars = store.allBars;
    store.allBars = () => Promise.reject(new StoreDownError('allBars', 'disk I/O error'));
    try {
      const { chartPage } = await import('@/widgets/pages');
      // Nothing held yet (a new process), so the series must be read from the store that fails.
      (globalThis as Record<symbol, Map<unknown, unknown>>)[Symbol.for('goldapi.spotSeries')]?.clear();
      expect(shown(await chartPage(new URLSearchParams('range=1mo&locale=en-US'), 'http://t'))).toBe(t.lineFutures + USD_OZ);
    } finally {
      store.allBars = allBars;
    }
  });

  it('draws in the currency and unit asked, and says so in the label; in German', async () => {
    const html = await page('sinceJanuary', 'range=1y&currency=EUR&unit=gram&locale=de-DE');
    const de = STRINGS.de;
    expect(shown(html)).toBe(`${de.lineFutures} · EUR/${de.abbrGram}`);
    const s = series(html);
    expect(s['1y'].url).toBe('/api/v1/history?series=futures&from=2025-04-15&currency=EUR&unit=gram');
    expect(s['3mo'].url).toBe('/api/v1/history?series=spot&symbol=xau&from=2026-01-14&currency=EUR&unit=gram');
    expect(s.max.url).toBe('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram');
    // The 2-minute series is USD per troy ounce only, and its label says so.
    expect(s['1d'].label).toBe(`${de.lineIntraday} · USD/${de.abbrOz}`);
  });
});

describe('the price pages’ chart plan', () => {
  it('judged by the server as the widget’s: every session since January covers a month (spot), not six months (futures); in the page’s currency, unit and language', async () => {
    vi.stubEnv('DATA_DIR', dirs.sinceJanuary);
    await newProcess();
    const { priceChartPlan } = await import('@/site/price-chart');
    const { series } = await priceChartPlan({ metal: 'gold', currency: 'eur', unit: 'gram', lang: 'de' });
    const de = STRINGS.de;
    expect(series['5d']).toMatchObject({ line: 'spot', url: '/api/v1/history?series=spot&symbol=xau&from=2026-04-09&currency=EUR&unit=gram' });
    expect(series['1mo']).toMatchObject({ line: 'spot', label: `${de.lineSpot} · EUR/${de.abbrGram}` });
    expect(series['6mo']).toMatchObject({ line: 'futures', url: '/api/v1/history?series=futures&from=2025-10-15&currency=EUR&unit=gram' });
    expect(series['10y']).toMatchObject({ line: 'futures', label: `${de.lineFutures} · EUR/${de.abbrGram}` });
    // 1D: the recorded series (USD per troy ounce), drawn by the page at the rate spot uses now, and said so.
    expect(series['1d']).toMatchObject({
      line: 'intraday',
      label: `${de.lineIntraday} · EUR/${de.abbrGram} ${de.atRateNow}`,
      currency: 'EUR',
      atRateNow: { unit: 'gram' },
    });
    expect(series.max.url).toBe('/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram');
  });
});

describe('rangeSeries', () => {
  const today = '2026-04-16';
  const eur = { currency: 'EUR', unit: 'gram' } as const;

  it('palladium has no monthly series: MAX is its longest daily series, in the currency and unit asked its spot bars, in USD per ounce the futures’ daily bars', () => {
    expect(rangeSeries('palladium', 'max', false, today, eur, t)).toMatchObject({
      url: '/api/v1/history?series=spot&symbol=xpd&currency=EUR&unit=gram',
      line: 'spot',
      currency: 'EUR',
    });
    const usdOz = { currency: 'USD', unit: 'oz' } as const;
    expect(rangeSeries('palladium', 'max', false, today, usdOz, t)).toMatchObject({
      url: '/api/v1/chart?symbol=palladium&range=max&interval=1d',
      line: 'futures',
      label: lineLabel('futures', t, usdOz),
      currency: 'USD',
    });
    expect(rangeSeries('platinum', 'max', false, today, eur, t).url).toBe('/api/v1/history?series=monthly&symbol=xpt&currency=EUR&unit=gram');
  });

  it('another asset keeps its own bars and no label', () => {
    expect(rangeSeries('sp500', '1y', false, today, eur, t)).toMatchObject({
      url: '/api/v1/chart?symbol=sp500&range=1y&interval=1d',
      line: 'asset',
      label: '',
    });
    expect(rangeSeries('eurusd', 'max', false, today, eur, t)).toMatchObject({ line: 'asset', rate: true, decimals: 4 });
  });
});
