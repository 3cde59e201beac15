import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { History } from '@/lib/schemas/history';
import { App } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';
import { ratesOf } from '../../support/fx-history';
import { marketClockAt } from '../../support/market';
import { mcpClient } from '../../support/mcp';
import { longChartHandler, longDailyRows } from '../../support/yahoo';

// History in other currencies on the built app (decisions §24): the route, its CSV twin, the MCP tool over HTTP and
// the validators, against nineteen years of real gold rows and the fake's real rates (tests/fixtures/SOURCES.md).

const rows = longDailyRows();
const r4 = (v: number) => Math.round(v * 1e4 * (1 + Number.EPSILON)) / 1e4;
const r2 = (v: number) => Math.round(v * 1e2 * (1 + Number.EPSILON)) / 1e2;

let fake: FakeUpstream;
let app: App;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(longChartHandler());
  // The market clock on the session after the last real bar (2026-04-16), so the futures series is current.
  app = await App.start({ env: { ...fake.env(), WARM_FEEDS: 'off', ...marketClockAt(Date.parse('2026-04-17T09:00:00-04:00')) } });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('GET /api/v1/history in other currencies and units', () => {
  it('EUR per gram over a window: each close at its own date’s rate, fx_d on a day without one; CSV the same numbers', async () => {
    const eur = ratesOf('EUR');
    const { status, body } = await app.json('/api/v1/history?currency=eur&unit=gram&from=2014-04-01&to=2014-05-31');
    expect(status).toBe(200);
    History.parse(body);
    const want = rows
      .filter((r) => r.d >= '2014-04-01' && r.d <= '2014-05-31')
      .map((r) => {
        const on = [...eur.keys()].filter((d) => d <= r.d).pop()!;
        return { d: r.d, c: r4((r.c * eur.get(on)!) / 31.1034768), fx: eur.get(on), ...(on !== r.d ? { fx_d: on } : {}) };
      });
    expect(body.points.map(({ d, c, fx, fx_d }: History['points'][number]) => ({ d, c, fx, ...(fx_d ? { fx_d } : {}) }))).toEqual(want);
    expect(want.some((p) => p.fx_d === '2014-04-30')).toBe(true);
    expect(body).toMatchObject({ currency: 'EUR', unit: 'gram', fx: { from: [...eur.keys()][0] } });
    const csv = await app.get('/api/v1/history.csv?currency=eur&unit=gram&from=2014-04-01&to=2014-05-31');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('date,close,high,low,fx,fx_d');
    expect(lines.slice(1)).toEqual(body.points.map((p: History['points'][number]) => [p.d, p.c, p.h, p.l, p.fx, p.fx_d ?? ''].join(',')));
  });

  it('a converted window carries a validator a holder revalidates with 304', async () => {
    const path = '/api/v1/history?currency=JPY&range=max&group=month';
    const res = await app.get(path);
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await app.get(path, { headers: { 'if-none-match': etag! } })).status).toBe(304);
  });

  it('get_gold_history over /mcp gives the numbers REST gives', async () => {
    const client = await mcpClient(app);
    try {
      const result = (await client.callTool({
        name: 'get_gold_history',
        arguments: { currency: 'JPY', unit: 'oz', from: '2020-01-01', to: '2020-06-30', group: 'week' },
      })) as unknown as { structuredContent: History; content: { text: string }[] };
      const { body } = await app.json('/api/v1/history?currency=JPY&from=2020-01-01&to=2020-06-30&group=week');
      expect(result.structuredContent.points).toEqual(body.points);
      expect(result.structuredContent.period).toEqual(body.period);
      expect(result.content[0].text).toContain('JPY per troy ounce');
    } finally {
      await client.close();
    }
  });

  it('every failure answers JSON with data_state, never a 500', async () => {
    for (const [query, status] of [
      ['currency=CHF', 400],
      ['currency=EURO', 400],
      ['unit=stone', 400],
      ['from=2021-01-02&to=2021-01-01', 400],
      ['series=monthly&symbol=xpd', 400],
      ['date=1999-01-01', 404],
    ] as const) {
      const res = await app.json(`/api/v1/history?${query}`);
      expect(res.status, query).toBe(status);
      expect(res.headers.get('content-type'), query).toContain('application/json');
      expect(res.body, query).toMatchObject({ error: expect.any(String), data_state: expect.any(Object), updated_at: expect.any(String) });
    }
    fake.set('fxHistory', { mode: 'refuse' });
    const aed = await app.json('/api/v1/history?currency=AED');
    expect(aed.status).toBe(503);
    expect(aed.body).toMatchObject({ error: expect.stringContaining('AED'), data_state: { status: 'unavailable' } });
    expect((await app.json('/api/v1/history')).status).toBe(200);
    fake.reset();
  });

  it('where the rate source refuses a range over five years (422), a currency’s first ask comes in pieces and the answer is whole', async () => {
    fake.fxHistoryMaxYears = 5;
    fake.resetCalls();
    try {
      // INR moves every day and starts 2009-01-02: a piece joined twice, dropped or shifted shows in the closes.
      const { status, body } = await app.json('/api/v1/history?currency=INR&range=max');
      expect(status).toBe(200);
      expect(body.data_state.status).toBe('fresh');
      const inr = ratesOf('INR');
      const dates = [...inr.keys()];
      // Each close × the rate of its own date, found here by a plain scan of the fixture (the last on or before it,
      // not more than 7 days older); days without such a rate have no point.
      const want = rows.flatMap((r) => {
        const on = dates.filter((d) => d <= r.d).pop();
        if (!on || Date.parse(r.d) - Date.parse(on) > 7 * 86_400_000) return [];
        return [{ d: r.d, c: r2(r.c * inr.get(on)!), fx: inr.get(on)!, ...(on !== r.d ? { fx_d: on } : {}) }];
      });
      expect(want.length).toBeGreaterThan(4000);
      expect(body.points.map(({ d, c, fx, fx_d }: History['points'][number]) => ({ d, c, fx, ...(fx_d ? { fx_d } : {}) }))).toEqual(want);
      expect(body.fx.from).toBe('2009-01-02');
      // One ask refused whole, then pieces under five years each, from the same first date.
      const asked = fake.log.filter((l) => l.startsWith('/v2/rates') && l.includes('quotes=INR')).map((l) => new URL(l, 'http://x').searchParams);
      expect(asked.length).toBeGreaterThan(2);
      const years = (q: URLSearchParams) => (Date.parse(q.get('to')!) - Date.parse(q.get('from')!)) / (365.25 * 86_400_000);
      expect(years(asked[0])).toBeGreaterThan(5);
      expect(
        asked
          .slice(1)
          .map(years)
          .every((y) => y < 5),
      ).toBe(true);
      expect(asked[1].get('from')).toBe(asked[0].get('from'));
    } finally {
      fake.fxHistoryMaxYears = null;
    }
  });
});
