import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METALS } from '@/lib/reference/metals';
import { UpstreamError } from '@/lib/sources/upstream/fetch';
import { fetchMetal } from '@/lib/sources/upstream/gold-api';
import { fetchQuote, readQuotes } from '@/lib/sources/upstream/quotes';
import type { Spot } from '@/lib/schemas/spot';
import { textFor } from '@/widgets/i18n';
import { renderPrice } from '@/widgets/price';
import { fixture, fixtureText, PRIMARY_FIXTURE, QUOTES_FIXTURE } from '../../support/fake-upstream';
import { noChange } from '@/lib/prices/movement';

// Platinum and palladium through both adapters, on their bodies (constructed from the real gold bodies'
// shape, see tests/fixtures/SOURCES.md) and on every way a body can be wrong: garbage, outside the
// plausible bounds of decisions §17 (50 to 50,000 USD/oz), and no quote with bid below ask.

const NEW_METALS = ['XPT', 'XPD'] as const;
type Sym = (typeof NEW_METALS)[number];
const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('the served metals list', () => {
  it('holds the four metals with the bounds of decisions §17', () => {
    expect(METALS.map((m) => [m.id, m.symbol, m.intraday])).toEqual([
      ['gold', 'XAU', 'xau'],
      ['silver', 'XAG', 'xag'],
      ['platinum', 'XPT', 'xpt'],
      ['palladium', 'XPD', 'xpd'],
    ]);
    expect(METALS.find((m) => m.symbol === 'XPT')!.bounds).toEqual([50, 50_000]);
    expect(METALS.find((m) => m.symbol === 'XPD')!.bounds).toEqual([50, 50_000]);
  });
});

/** A local gold-api.com and quotes feed answering whatever each test sets, per path. */
let server: http.Server;
const replies = new Map<string, { status: number; body: string }>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const r = replies.get(req.url ?? '') ?? { status: 404, body: '{"error":"Symbol not found"}' };
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(r.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, { GOLD_API_URL: url, QUOTES_API_URL: url, UPSTREAM_TIMEOUT_MS: '1000' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const primary = (sym: Sym, status: number, body: string) => replies.set(`/price/${sym}`, { status, body });
const quotes = (sym: Sym, status: number, body: string) => replies.set(`/public-quotes/bboquotes/instrument/${sym}/USD`, { status, body });
const withPrices = (sym: Sym, f: (p: number) => [number, number]) =>
  fixture<any[]>(QUOTES_FIXTURE[sym]).map((e) => ({
    ...e,
    spreadProfilePrices: e.spreadProfilePrices.map((p: any) => {
      const [bid, ask] = f((p.bid + p.ask) / 2);
      return { ...p, bid, ask };
    }),
  }));

describe.each(NEW_METALS)('%s', (sym) => {
  const body = fixture(PRIMARY_FIXTURE[sym]);

  describe('gold-api.com', () => {
    it('reads the price, USD per troy ounce, dated by updatedAt', async () => {
      primary(sym, 200, fixtureText(PRIMARY_FIXTURE[sym]));
      const r = await fetchMetal(sym);
      expect(r.value).toBe(body.price);
      expect(r.asOf).toBe(Date.parse(body.updatedAt));
    });

    it.each([
      ['garbage JSON', 200, '{"price": 13'],
      ['an HTML page', 200, '<!doctype html><title>Just a moment...</title>'],
      ['a 500', 500, fixtureText(PRIMARY_FIXTURE[sym])],
      ['a 404', 404, '{"error":"Symbol not found"}'],
      ['another metal', 200, fixtureText(PRIMARY_FIXTURE[sym === 'XPT' ? 'XPD' : 'XPT'])],
      ['another currency', 200, JSON.stringify({ ...body, currency: 'EUR' })],
      ['no price', 200, JSON.stringify({ ...body, price: null })],
      ['a zero price', 200, JSON.stringify({ ...body, price: 0 })],
      ['a price below the bounds', 200, JSON.stringify({ ...body, price: 49.99 })],
      ['a price above the bounds', 200, JSON.stringify({ ...body, price: 50_000.01 })],
    ])('fails on %s', async (_, status, text) => {
      primary(sym, status, text);
      await expect(fetchMetal(sym)).rejects.toThrow(UpstreamError);
    });

    it('accepts the bounds themselves', async () => {
      for (const price of [50, 50_000]) {
        primary(sym, 200, JSON.stringify({ ...body, price }));
        expect((await fetchMetal(sym)).value).toBe(price);
      }
    });
  });

  describe('the quotes feed', () => {
    it('reads the narrowest profile, its mid close to the gold-api.com price of the same metal', async () => {
      quotes(sym, 200, fixtureText(QUOTES_FIXTURE[sym]));
      const q = await fetchQuote(sym);
      const profiles = fixture<any[]>(QUOTES_FIXTURE[sym]).flatMap((e) => e.spreadProfilePrices);
      const best = profiles.reduce((a, b) => (b.ask - b.bid < a.ask - a.bid ? b : a));
      expect(q.value).toMatchObject({ bid: best.bid, ask: best.ask });
      expect(q.value.mid).toBeCloseTo((best.bid + best.ask) / 2, 9);
      expect(Math.abs(q.value.mid / body.price - 1)).toBeLessThan(0.015);
    });

    it.each([
      ['garbage JSON', 200, '[{"ts": 17'],
      ['an HTML page', 200, '<!doctype html><title>Maintenance</title>'],
      ['a 500', 500, '{"error":"internal"}'],
      ['an empty array', 200, '[]'],
    ])('fails on %s', async (_, status, text) => {
      quotes(sym, status, text);
      await expect(fetchQuote(sym)).rejects.toThrow(UpstreamError);
    });

    it('fails when no profile has bid below ask (bid = ask, or bid > ask)', () => {
      expect(() =>
        readQuotes(
          sym,
          withPrices(sym, (m) => [m, m]),
          NOW,
        ),
      ).toThrow(UpstreamError);
      expect(() =>
        readQuotes(
          sym,
          withPrices(sym, (m) => [m + 0.5, m - 0.5]),
          NOW,
        ),
      ).toThrow(UpstreamError);
    });

    it('fails outside the bounds: below 50 or above 50,000 USD/oz', () => {
      expect(() =>
        readQuotes(
          sym,
          withPrices(sym, () => [49.9, 49.95]),
          NOW,
        ),
      ).toThrow(/implausible/);
      expect(() =>
        readQuotes(
          sym,
          withPrices(sym, () => [50_000.5, 50_001]),
          NOW,
        ),
      ).toThrow(/implausible/);
      expect(
        readQuotes(
          sym,
          withPrices(sym, () => [50, 50.02]),
          NOW,
        ).value.bid,
      ).toBe(50);
    });

    it('fails on an absurd quote, a thousand times its price', () => {
      const absurd = withPrices(sym, (m) => [m * 1000 - 0.5, m * 1000 + 0.5]);
      expect(() => readQuotes(sym, absurd, NOW)).toThrow(UpstreamError);
    });
  });
});

describe('price widget per metal', () => {
  const gold = fixture(PRIMARY_FIXTURE.XAU).price;
  const platinum = fixture(PRIMARY_FIXTURE.XPT).price;
  // Two real recorded gold prices: the later one against the earlier one as its previous close.
  const previous = fixture('goldapi-price-XAU-2026-09-03.json').price;
  const state = { status: 'fresh', as_of: null, source: null, age_seconds: 1 } as const;
  const none = noChange('2026-11-18');
  const goldChange = {
    ...none,
    state: 'ok',
    previous_close: previous,
    previous_close_date: '2026-11-17',
    change: gold - previous,
    change_pct: (gold / previous - 1) * 100,
    fx_basis: 'close',
  };
  const spot = {
    xau: { price: gold, currency: 'USD', unit: 'troy_oz' },
    fx_rate: 1,
    platinum_usd_oz: platinum,
    change: goldChange,
    platinum_change: none,
    groups: {},
    data_state: state,
  } as unknown as Spot;
  const opts = { currency: 'USD', unit: 'oz' as const, theme: 'light' as const, locale: 'en-US', silver: false, ratio: false };
  const render = (metal?: 'gold' | 'platinum') =>
    String(renderPrice({ opts: { ...opts, metal }, spot, state, origin: 'http://x', words: textFor('en-US') }));

  it("shows each metal's own spot change: gold's beside gold, never beside platinum", () => {
    const dir = gold > previous ? 'up' : 'down';
    expect(render()).toMatch(new RegExp(`data-f="change"[^>]*class="${dir}">`));
    expect(render()).toContain(`${Math.abs(goldChange.change_pct).toFixed(2)}%`);
    expect(render('platinum')).toMatch(/data-f="change"[^>]*hidden><\/span>/);
    expect(render('platinum')).toContain(`data-f="price" aria-live="polite">$${platinum.toLocaleString('en-US', { minimumFractionDigits: 2 })}<`);
  });
});
