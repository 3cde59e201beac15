import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { fixtureBars, importDaily, importFile } from '../../support/bars';
import { inProcessScenarios } from '../../support/in-process';
import { marketClockAt } from '../../support/market';
import { call, rpc } from '../../support/mcp';
import { realChartHandler } from '../../support/yahoo';

// Imported daily bars: `npm run import-daily` run as an operator runs it (a process of its own) on a store folder, then
// an instance on that folder at the route handlers in process (REST and /mcp, Request in, Response out, its own fake
// upstream and process state, tests/support/in-process.ts): the spot change after an imported previous session, the
// spot series with `date=` and CSV; and the command's refusals, which write nothing. The instance's calendar runs on
// Thursday 16 April 2026, a trading day whose previous session is a real row of the broker's daily file in
// tests/fixtures. In the in-process project (vitest.config.mts): the command's processes are the integration run's
// work, not the unit loop's.

const THURSDAY = Date.parse('2026-04-16T09:00:00-04:00');
const GRAMS_PER_OZ = 31.1034768;
const OZ_PER_KG = 32.1507466;
const round = (n: number, d: number) => Number(n.toFixed(d));

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
// The 5-year futures body takes a while to serve on a busy machine.
const scenario = inProcessScenarios({
  env: { ...marketClockAt(THURSDAY), UPSTREAM_TIMEOUT_MS: '5000' },
  prepare: (fake) => fake.onChart(realChartHandler()),
});
/** An instance, on the store folder `dataDir` when given. */
const start = (dataDir?: string) =>
  scenario(undefined, { ...marketClockAt(THURSDAY), UPSTREAM_TIMEOUT_MS: '5000', ...(dataDir ? { DATA_DIR: dataDir } : {}) });

const emptyDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-movement-'));
  folders.push(dir);
  return dir;
};

describe('after an imported previous session', () => {
  it('spot gives the exact previous close, change and percent in USD/oz, EUR/gram and INR/kg, fx_basis current', async () => {
    const dataDir = emptyDir();
    const imported = importDaily(dataDir, 'xau', importFile(['2026-04-14', '2026-04-15']), THURSDAY);
    expect(imported).toMatchObject({ status: 0 });
    expect(imported.out).toContain('2 xau bars imported into the embedded store (2026-04-14 to 2026-04-15); 0 recorded bars kept');
    // Read before the instance's environment (its market clock) is this process's: the fixture's rows as they are.
    const bars = fixtureBars(['2026-04-14', '2026-04-15']);
    const [, prev] = bars;
    const app = await start(dataDir);
    // The spot series, read before any price is served (which would start today's bar): the bars, with statistics equal to an independent computation over them.
    const h = await app.json('/api/v1/history?series=spot');
    History.parse(h.body);
    // Imported bars of closed sessions: final, with no count of folded prices.
    expect(h.body.points).toEqual(bars.map((b) => ({ d: b.d, o: b.o, c: b.c, h: b.h, l: b.l, origin: 'imported', final: true, n: null })));
    expect(h.body).toMatchObject({
      count: 2,
      high_52w: Math.max(...bars.map((b) => b.h)),
      low_52w: Math.min(...bars.map((b) => b.l)),
      ranges: { day: { low: prev.l, high: prev.h } },
      return_ytd_pct: null,
      return_1y_pct: null,
      data_state: { status: 'fresh', source: 'cache' },
    });
    expect(h.body.source).toMatch(/^Daily spot bars recorded by this service/);

    // date= on the spot series: hit, miss, malformed; CSV.
    const hit = await app.json('/api/v1/history?series=spot&date=2026-04-15');
    expect(hit.body.points).toEqual([{ d: '2026-04-15', o: prev.o, c: prev.c, h: prev.h, l: prev.l, origin: 'imported', final: true, n: null }]);
    expect(hit.body.high_52w).toBe(h.body.high_52w);
    const miss = await app.json('/api/v1/history?series=spot&date=2026-04-13');
    expect(miss.status).toBe(404);
    expect(miss.body).toMatchObject({ error: expect.stringContaining('2026-04-13'), data_state: { status: 'fresh' } });
    expect(miss.body.updated_at).toBeTruthy();
    for (const bad of ['2026-4-15', '2026-02-30', 'yesterday']) {
      const r = await app.json(`/api/v1/history?series=spot&date=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: expect.stringContaining(bad), valid: ['YYYY-MM-DD'] });
    }
    const csv = await app.get('/api/v1/history?series=spot&format=csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(
      ['date,open,high,low,close,origin,final,n', ...bars.map((b) => `${b.d},${b.o},${b.h},${b.l},${b.c},imported,true,`)].join('\r\n') + '\r\n',
    );
    const badSeries = await app.json('/api/v1/history?series=gold');
    expect(badSeries).toMatchObject({ status: 400, body: { valid: ['futures', 'spot', 'monthly', 'london'] } });

    for (const [currency, unit, perOz, decimals] of [
      ['USD', 'oz', 1, 2],
      ['EUR', 'gram', 1 / GRAMS_PER_OZ, 4],
      ['INR', 'kg', OZ_PER_KG, 2],
    ] as const) {
      const r = await app.json(`/api/v1/spot?currency=${currency}&unit=${unit}&compact=1`);
      expect(r.status).toBe(200);
      const { spot_usd_oz: price, fx_rate: rate } = r.body;
      const previous = round(prev.c * rate * perOz, decimals);
      // The figures shown add up: the change is the shown price minus the shown previous close.
      expect(r.body.xau.price).toBe(round(price * rate * perOz, decimals));
      const change = round(r.body.xau.price - previous, decimals);
      expect(r.body.change).toMatchObject({
        state: 'ok',
        session_date: '2026-04-16',
        previous_close: previous,
        previous_close_date: '2026-04-15',
        change,
        change_pct: round((change / previous) * 100, 2),
        fx_basis: 'current',
      });
    }
    // Silver has no earlier bar: unavailable, whatever gold has.
    expect((await app.json('/api/v1/spot?compact=1')).body.silver_change).toMatchObject({ state: 'unavailable', change: null });
    // The MCP text states the change and the previous close's date.
    const mcp = await rpc(app, call('get_gold_price', {}));
    expect(mcp.json.result.structuredContent.change).toMatchObject({ state: 'ok', previous_close_date: '2026-04-15' });
    expect(mcp.json.result.content[0].text).toMatch(/Change [+−±][\d,.]+ USD \([+−±][\d.]+%\) since the previous close of 2026-04-15/);

    // get_gold_history with series and date.
    const tool = await rpc(app, call('get_gold_history', { series: 'spot', date: '2026-04-15' }));
    expect(tool.json.result.structuredContent.points).toEqual(hit.body.points);
    expect(tool.json.result.content[0].text).toContain('on 2026-04-15');
  });
});

describe('npm run import-daily', () => {
  it('refuses a malformed file whole, naming the line, and dates out of order; writes nothing', async () => {
    const dataDir = emptyDir();
    const good = importFile(['2026-04-13', '2026-04-14', '2026-04-15']).trimEnd().split('\n');
    const broken = [...good.slice(0, 3), good[3].replace(/,[^,]+$/, ',n/a')].join('\n');
    const r1 = importDaily(dataDir, 'xau', broken, THURSDAY);
    expect(r1.status).toBe(1);
    expect(r1.out).toMatch(/refused, nothing written\. line 4: close is not a positive number/);
    const swapped = [good[0], good[1], good[3], good[2]].join('\n');
    const r2 = importDaily(dataDir, 'xau', swapped, THURSDAY);
    expect(r2.status).toBe(1);
    expect(r2.out).toMatch(/line 4: dates out of order: 2026-04-14 after 2026-04-15/);
    const inverted = [good[0], good[1].replace(/^([^,]+),([^,]+),([^,]+),([^,]+),/, '$1,$2,$4,$3,')].join('\n');
    expect(importDaily(dataDir, 'xau', inverted, THURSDAY).out).toMatch(/line 2: prices must satisfy low ≤ open, close ≤ high/);
    expect(importDaily(dataDir, 'xau', 'time,open,high,low,tick_volume\n', THURSDAY).out).toMatch(/line 1: no close column/);
    const future = [...good, good[3].replace(/^2026-04-15/, '2052-04-15')].join('\n');
    expect(importDaily(dataDir, 'xau', future, THURSDAY).out).toMatch(
      /refused, nothing written\. line 5: 2052-04-15 is after the current session \(2026-04-16\)/,
    );
    expect(importDaily(dataDir, 'gold', good.join('\n'), THURSDAY).out).toMatch(/Unknown symbol "gold"\. Valid values: xau, xag/);
    const app = await start(dataDir);
    expect((await app.json('/api/v1/history?series=spot')).body.points).toEqual([]);
  });
});
