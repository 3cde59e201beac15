import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { fixtureBars, importDaily, importFile } from '../../support/bars';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';
import { realChartHandler } from '../../support/yahoo';

// How the price moves, through the built app against the fake upstream: bars recorded from served prices (the
// server's own sampler and request-time reads) through real restarts and an import between them. The app's calendar
// runs on Thursday 16 April 2026, a trading day whose previous session is a real row of the broker's daily file in
// tests/fixtures. The spot change on a new deployment and the spot series run at the route handlers in process
// (tests/unit/prices/movement-route.test.ts), as do the change after an imported previous session and the import
// command's refusals (tests/integration/prices/imported-bars.test.ts).

const THURSDAY = Date.parse('2026-04-16T09:00:00-04:00');
const round = (n: number, d: number) => Number(n.toFixed(d));

const running: (App | FakeUpstream)[] = [];
afterEach(async () => {
  for (const x of running.splice(0).reverse()) await (x instanceof App ? x.stop() : x.close());
});

async function start(env: Record<string, string> = {}) {
  const fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  running.push(fake);
  // The 5-year futures body takes a while to serve on a busy machine.
  const app = await App.start({ env: { ...fake.env(), ...marketClockAt(THURSDAY), UPSTREAM_TIMEOUT_MS: '5000', ...env } });
  running.push(app);
  return { fake, app };
}

describe('bars recorded from served prices', () => {
  it('samples and request-time reads fold in; stale readings fold nothing; a restart keeps the bar; an import never overwrites it', async () => {
    const gold: number = fixture('goldapi-price-XAU.json').price;
    const later: number = fixture('goldapi-price-XAU-2026-09-03.json').price;
    // One sample soon after boot, then none for an hour: what moves the bar afterwards are requests.
    const { fake, app } = await start({ SAMPLER: 'on', SAMPLE_INTERVAL_S: '3600', CACHE_TTL_S: '1' });
    fake.set('quotes', { mode: 'refuse' });
    const bar = async () => (await app.json('/api/v1/history?series=spot&date=2026-04-16')).body.points?.[0];
    const until = async (ok: (b: any) => boolean) => {
      for (let i = 0; i < 60; i++) {
        const b = await bar();
        if (b && ok(b)) return b;
        await sleep(250);
      }
      throw new Error(`bar not as expected: ${JSON.stringify(await bar())}`);
    };
    // The session is in progress: not final, one price folded so far.
    expect(await until(() => true)).toEqual({ d: '2026-04-16', o: gold, c: gold, h: gold, l: gold, origin: 'recorded', final: false, n: 1 });
    // A later real price read by a request between samples moves the high and the close.
    fake.set('gold', { mode: 'ok', fixture: 'goldapi-price-XAU-2026-09-03.json' });
    await sleep(1100);
    expect((await app.json('/api/v1/spot?compact=1')).body.spot_usd_oz).toBe(later);
    expect(await until((b) => b.h === later)).toEqual({
      d: '2026-04-16',
      o: gold,
      c: later,
      h: later,
      l: gold,
      origin: 'recorded',
      final: false,
      n: 2,
    });
    // Both sources down: the last real price is served stale, and the bar does not change.
    fake.set('gold', { mode: 'refuse' });
    await sleep(1100);
    for (let i = 0; i < 3; i++) expect((await app.json('/api/v1/spot?compact=1')).body.data_state.status).toBe('stale');
    await sleep(500);
    expect(await bar()).toEqual({ d: '2026-04-16', o: gold, c: later, h: later, l: gold, origin: 'recorded', final: false, n: 2 });
    // The bar's own session has no earlier bar, so the change is still unknown, and says so.
    expect((await app.json('/api/v1/spot?compact=1')).body.change).toMatchObject({ state: 'unavailable', session_date: '2026-04-16' });

    await app.restart();
    expect(await bar()).toEqual({ d: '2026-04-16', o: gold, c: later, h: later, l: gold, origin: 'recorded', final: false, n: 2 });
    await app.stop();

    // The operator imports a file covering that day too: the recorded bar stays, the earlier day is added.
    const r = importDaily(app.dataDir, 'xau', importFile(['2026-04-15', '2026-04-16']), THURSDAY);
    expect(r.status).toBe(0);
    expect(r.out).toContain('1 xau bar imported into the embedded store (2026-04-15 to 2026-04-16); 1 recorded bar kept: 2026-04-16');
    await app.restart();
    const h = await app.json('/api/v1/history?series=spot');
    expect(h.body.points.map((p: { d: string; origin: string }) => `${p.d} ${p.origin}`)).toEqual(['2026-04-15 imported', '2026-04-16 recorded']);
    // Now the change exists: the recorded session against the imported close, the recorded bar's range beside it.
    const [prev] = fixtureBars(['2026-04-15']);
    const spot = await app.json('/api/v1/spot?compact=1');
    expect(spot.body.change).toMatchObject({
      state: 'ok',
      previous_close: round(prev.c, 2),
      previous_close_date: '2026-04-15',
      open: gold,
      high: later,
      low: gold,
      change: round(round(spot.body.spot_usd_oz, 2) - round(prev.c, 2), 2),
    });
  });
});
