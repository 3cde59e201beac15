import { describe, expect, it } from 'vitest';
import { marketState } from '@/lib/calendar/market';
import { Spot } from '@/lib/schemas/spot';
import { readQuotes } from '@/lib/sources/upstream/quotes';
import { App } from '../../support/app';
import { fixture, QUOTES_FIXTURE } from '../../support/fake-upstream';
import { marketClockAt, WEEKEND_DAY } from '../../support/market';
import { mcpClient } from '../../support/mcp';
import { scenarios } from '../../support/scenario';

// Spot from two independent sources (gold-api.com, then the quotes feed) as the built app shows them: both up on
// every surface (REST and MCP), and a weekend across spot, MCP, the widget and the cron route. Every fault mode of
// either source, both down, restarts, the cross-check and fair use are tested at the route handler, in process:
// tests/unit/prices/two-sources.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const quoteOf = (metal: 'XAU' | 'XAG') => readQuotes(metal, fixture(QUOTES_FIXTURE[metal]), Date.now());
const xau = quoteOf('XAU');
const iso = (ms: number) => new Date(ms).toISOString();

const scenario = scenarios({ env: { CACHE_TTL_S: '30' }, spare: false });

const spot = async (app: App) => {
  const r = await app.json('/api/v1/spot?compact=1');
  expect(r.status).toBe(200);
  return Spot.parse(r.body);
};

describe('both sources up', () => {
  it('serves the primary, cross-checked against the quotes feed, with bid/ask and market hours', async () => {
    const { app } = await scenario();
    const b = await spot(app);
    expect(b).toMatchObject({ spot_usd_oz: gold.price, price_source: 'gold-api.com', silver_usd_oz: silver.price, silver_source: 'gold-api.com' });
    expect(b.sources).toEqual([
      { name: 'gold-api.com', price_usd_oz: gold.price, as_of: iso(Date.parse(gold.updatedAt)), status: 'fresh' },
      { name: 'swissquote.com', price_usd_oz: xau.value.mid, as_of: iso(xau.asOf), status: 'fresh' },
    ]);
    expect(b.cross_check).toEqual({ status: 'agree', difference_pct: Number(((gold.price / xau.value.mid - 1) * 100).toFixed(3)) });
    expect(b).toMatchObject({ bid_usd_oz: xau.value.bid, ask_usd_oz: xau.value.ask, quote_source: 'swissquote.com' });
    expect(b.groups.gold).toEqual(b.data_state);
    // The market hours follow the real clock.
    expect(b.market).toEqual(marketState(Date.parse(b.updated_at)));

    const client = await mcpClient(app);
    const tool: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(tool.structuredContent.market).toEqual(marketState(Date.parse(tool.structuredContent.updated_at)));
    expect(tool.content[0].text).toContain('(gold-api.com)');
  });
});

describe('on a weekend', () => {
  it('every surface says the market is closed and when it reopens; the sampler records nothing', async () => {
    const secret = 'weekend-secret';
    const shift = marketClockAt(WEEKEND_DAY);
    const { app } = await scenario(undefined, { ...shift, CRON_SECRET: secret, CACHE_TTL_S: '30' });
    const offsetMs = Number(shift.MARKET_CLOCK_OFFSET_S) * 1000;
    const b = await spot(app);
    expect(b.market).toMatchObject({ status: 'closed', reason: 'weekend' });
    // The calendar's clock is shifted onto a Saturday: the reopening is Sunday 18:00 New York time of that frame.
    expect(Date.parse(b.market.next_change) + offsetMs).toBe(Date.parse('2026-11-22T18:00:00-05:00'));
    // Freshness does not depend on the market: the price is fresh, it just does not move.
    expect(b.data_state.status).toBe('fresh');

    const client = await mcpClient(app);
    const tool: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(tool.structuredContent.market).toMatchObject({ status: 'closed', reason: 'weekend' });
    expect(tool.content[0].text).toMatch(/Market closed \(weekend\) until \S+Z: the price does not move until it reopens/);

    const page = await (await app.get('/widgets/price')).text();
    expect(page).toMatch(/data-f="market">Market closed · Reopens [^<]+</);

    const cron = await app.json('/api/cron/sample', { headers: { authorization: `Bearer ${secret}` } });
    expect(cron.body.samples).toEqual({ xau: 'market closed', xag: 'market closed', xpt: 'market closed', xpd: 'market closed' });
    expect((await app.json('/api/v1/intraday')).body.count).toBe(0);
  });
});
