import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fxCurrenciesBody, fxRatesBody } from './fx-history';

// A local stand-in for every upstream, serving the recorded real responses in tests/fixtures
// (see its SOURCES.md) and failing on command. It runs in the test process; the app under test
// reaches it through the *_API_URL variables. It counts the calls each route receives.

export const FIXTURES = path.resolve(__dirname, '../fixtures');

export function fixtureText(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}
export function fixture<T = any>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** gold-api.com's price of each served metal. */
export type MetalRoute = 'gold' | 'silver' | 'platinum' | 'palladium';
/** The quotes feed of one metal: a behaviour set here wins over one set on `quotes`. */
export type QuotesRoute = `quotes:${keyof typeof QUOTES_FIXTURE}`;
/** `quotes` is the quotes feed, every metal: a behaviour set on it applies to all of them (unless one has its own). */
export type RouteName = MetalRoute | 'fx' | 'crypto' | 'chart' | 'reserves' | 'quotes' | QuotesRoute | MonthlyRoute | FxHistoryRoute;
/** The World Bank's monthly workbook (MONTHLY_PRICES_URL): an xlsx, served as bytes. */
export type MonthlyRoute = 'monthly';
/** Where the fake serves the workbook (the variable is a full URL, not a base). */
export const MONTHLY_PATH = '/worldbank/CMO-Historical-Data-Monthly.xlsx';
/** Frankfurter v2: `fxHistory` its rates (`/v2/rates`), `fxCurrencies` its currency list (`/v2/currencies`). */
export type FxHistoryRoute = 'fxHistory' | 'fxCurrencies';

/** What a route does with the next requests. */
export type Behaviour =
  /** 200 with a recorded body (the route's default fixture unless named). */
  | { mode: 'ok'; fixture?: string; delayMs?: number }
  /** 200 with a body made by the test from the default fixture: wrong shapes, zero, negative, absurd values. */
  | { mode: 'json'; body: unknown; status?: number }
  /** Any status with a recorded body, or an empty one. */
  | { mode: 'status'; status: number; fixture?: string; text?: string }
  /** Connection dropped without an answer. */
  | { mode: 'refuse' }
  /** Accepts and never answers. */
  | { mode: 'hang' }
  /** 200 with a body that is not JSON. */
  | { mode: 'malformed' }
  /** Bytes made by the test (a workbook edited or cut short), with status 200 unless given. */
  | { mode: 'bytes'; body: Uint8Array; status?: number };

/** Chart requests are answered by a function of the ticker and query, so tests can serve per-ticker bodies. */
export type ChartHandler = (ticker: string, query: URLSearchParams) => { status: number; body: unknown } | null;

type FixedRoute = Exclude<RouteName, 'chart' | 'quotes' | QuotesRoute | FxHistoryRoute>;
const DEFAULT_FIXTURE: Record<FixedRoute, string> = {
  gold: 'goldapi-price-XAU.json',
  silver: 'goldapi-price-XAG.json',
  platinum: 'goldapi-price-XPT.constructed.json',
  palladium: 'goldapi-price-XPD.constructed.json',
  fx: 'er-api-latest-USD.json',
  crypto: 'coingecko-simple-price.json',
  reserves: 'dbnomics-IMF-IRFCL-M.PL.RAFAGOLDV_OZT.S1X.trimmed.json',
  monthly: 'worldbank-CMO-Historical-Data-Monthly-2026-07-02.xlsx',
};

/** The quotes feed's default bodies: gold captured the same minute as the gold-api gold body, the others built
 *  around the gold-api price of the same metal (see SOURCES.md), so by default the two sources agree. */
export const QUOTES_FIXTURE = {
  XAU: 'swissquote-bboquotes-XAU-USD-2026-08-18.first-entry.json',
  XAG: 'swissquote-bboquotes-XAG-USD.constructed.json',
  XPT: 'swissquote-bboquotes-XPT-USD.constructed.json',
  XPD: 'swissquote-bboquotes-XPD-USD.constructed.json',
} as const;

/** gold-api.com's default body of each metal, by symbol. */
export const PRIMARY_FIXTURE = {
  XAU: 'goldapi-price-XAU.json',
  XAG: 'goldapi-price-XAG.json',
  XPT: 'goldapi-price-XPT.constructed.json',
  XPD: 'goldapi-price-XPD.constructed.json',
} as const;

/** A metal by its symbol: its gold-api.com route here, its spot fields, its intraday symbol. */
export type MetalSymbol = keyof typeof PRIMARY_FIXTURE;
/** The four served metals, as the spot and intraday tests read them. */
export const METALS: { sym: MetalSymbol; id: string; route: RouteName; usd: string; source: string; intraday: string }[] = [
  { sym: 'XAU', id: 'gold', route: 'gold', usd: 'spot_usd_oz', source: 'price_source', intraday: 'xau' },
  { sym: 'XAG', id: 'silver', route: 'silver', usd: 'silver_usd_oz', source: 'silver_source', intraday: 'xag' },
  { sym: 'XPT', id: 'platinum', route: 'platinum', usd: 'platinum_usd_oz', source: 'platinum_source', intraday: 'xpt' },
  { sym: 'XPD', id: 'palladium', route: 'palladium', usd: 'palladium_usd_oz', source: 'palladium_source', intraday: 'xpd' },
];
/** gold-api.com's recorded price of a metal (USD per troy ounce). */
export const primaryPrice = (sym: MetalSymbol): number => fixture<{ price: number }>(PRIMARY_FIXTURE[sym]).price;

function routeOf(url: URL): { name: RouteName; ticker?: string } | null {
  const p = url.pathname;
  const quote = p.match(/^\/public-quotes\/bboquotes\/instrument\/(XAU|XAG|XPT|XPD)\/USD$/);
  if (quote) return { name: 'quotes', ticker: quote[1] };
  return baseRouteOf(url);
}

function baseRouteOf(url: URL): { name: RouteName; ticker?: string } | null {
  const p = url.pathname;
  if (p === '/price/XAU') return { name: 'gold' };
  if (p === '/price/XAG') return { name: 'silver' };
  if (p === '/price/XPT') return { name: 'platinum' };
  if (p === '/price/XPD') return { name: 'palladium' };
  if (p === '/v6/latest/USD') return { name: 'fx' };
  if (p === '/api/v3/simple/price') return { name: 'crypto' };
  const chart = p.match(/^\/v8\/finance\/chart\/([^/]+)$/);
  if (chart) return { name: 'chart', ticker: decodeURIComponent(chart[1]) };
  if (p.startsWith('/v22/series/')) return { name: 'reserves' };
  if (p === MONTHLY_PATH) return { name: 'monthly' };
  if (p === '/v2/rates') return { name: 'fxHistory' };
  if (p === '/v2/currencies') return { name: 'fxCurrencies' };
  return null;
}

export class FakeUpstream {
  /** Calls per route; `quotes` counts every metal's quotes, `quotes:XPT` only platinum's. */
  readonly calls: Record<RouteName, number> = {
    gold: 0,
    silver: 0,
    platinum: 0,
    palladium: 0,
    fx: 0,
    crypto: 0,
    chart: 0,
    reserves: 0,
    quotes: 0,
    'quotes:XAU': 0,
    'quotes:XAG': 0,
    'quotes:XPT': 0,
    'quotes:XPD': 0,
    monthly: 0,
    fxHistory: 0,
    fxCurrencies: 0,
  };
  /** Historical-FX rate requests per currency asked (`quotes`, upper case). */
  readonly fxHistoryCalls: Record<string, number> = {};
  /** The last date whose rates the fake has published (null: every row of the fixture); tests move it to make new days appear. */
  fxHistoryUntil: string | null = null;
  /** Rows the fake has not published yet, to be backfilled later (a currency and a span of dates); null: none withheld. */
  fxHistoryWithheld: { quote: string; from: string; to: string } | null = null;
  /** When set, a daily range longer than this many years is refused with 422, as Frankfurter does while it computes ranges live. */
  fxHistoryMaxYears: number | null = null;
  /** Every request path with its query, in order. */
  readonly log: string[] = [];
  private behaviour: Partial<Record<RouteName, Behaviour>> = {};
  private chartHandler: ChartHandler | null = null;
  private hung = new Set<http.ServerResponse>();
  private server!: http.Server;
  url = '';

  static async start(): Promise<FakeUpstream> {
    const fake = new FakeUpstream();
    fake.server = http.createServer((req, res) => fake.handle(req, res));
    fake.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  set(route: RouteName, b: Behaviour): this {
    this.behaviour[route] = b;
    return this;
  }

  /** Every route back to its recorded default; hung requests are released. */
  reset(): this {
    this.behaviour = {};
    this.releaseHung();
    return this;
  }

  onChart(handler: ChartHandler | null): this {
    this.chartHandler = handler;
    return this;
  }

  resetCalls(): void {
    for (const k of Object.keys(this.calls) as RouteName[]) this.calls[k] = 0;
    for (const k of Object.keys(this.fxHistoryCalls)) delete this.fxHistoryCalls[k];
    this.log.length = 0;
  }

  /** Environment for the app under test: every upstream pointed here. */
  env(): Record<string, string> {
    return {
      GOLD_API_URL: this.url,
      FX_API_URL: this.url,
      CRYPTO_API_URL: this.url,
      CHART_API_URL: this.url,
      RESERVES_API_URL: this.url,
      QUOTES_API_URL: this.url,
      MONTHLY_PRICES_URL: this.url + MONTHLY_PATH,
      FX_HISTORY_API_URL: this.url,
    };
  }

  async close(): Promise<void> {
    this.releaseHung();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private releaseHung() {
    for (const res of this.hung) res.destroy();
    this.hung.clear();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    this.log.push(url.pathname + url.search);
    const route = routeOf(url);
    if (!route) return this.reply(res, 404, '{"error":"no such fake route"}');
    this.calls[route.name]++;
    const own = route.name === 'quotes' ? (`quotes:${route.ticker}` as QuotesRoute) : null;
    if (own) this.calls[own]++;
    if (route.name === 'fxHistory') {
      for (const q of (url.searchParams.get('quotes') ?? '').toUpperCase().split(',')) this.fxHistoryCalls[q] = (this.fxHistoryCalls[q] ?? 0) + 1;
    }
    const b = (own && this.behaviour[own]) || this.behaviour[route.name] || { mode: 'ok' };
    switch (b.mode) {
      case 'refuse':
        return req.socket.destroy();
      case 'hang':
        this.hung.add(res);
        return;
      case 'malformed':
        return this.reply(res, 200, '{"price": 43');
      case 'json':
        return this.reply(res, b.status ?? 200, JSON.stringify(b.body));
      case 'bytes':
        return this.replyBytes(res, b.status ?? 200, b.body);
      case 'status':
        return this.reply(res, b.status, b.text ?? (b.fixture ? fixtureText(b.fixture) : ''));
      case 'ok':
        // The workbook is binary: read as bytes, never as text.
        if (route.name === 'monthly') return this.replyBytes(res, 200, fs.readFileSync(path.join(FIXTURES, b.fixture ?? DEFAULT_FIXTURE.monthly)));
        if (route.name === 'chart') {
          const answer = this.chartHandler?.(route.ticker!, url.searchParams);
          if (!answer) return this.reply(res, 404, fixtureText('yahoo-chart-error.json'));
          return this.reply(res, answer.status, JSON.stringify(answer.body));
        }
        if (route.name === 'fxHistory') {
          const [from, to] = [url.searchParams.get('from') ?? '', url.searchParams.get('to') ?? ''];
          if (this.fxHistoryMaxYears !== null && Date.parse(to) - Date.parse(from) > this.fxHistoryMaxYears * 365.25 * 86_400_000) {
            return this.reply(
              res,
              422,
              JSON.stringify({ status: 422, message: `date range exceeds ${this.fxHistoryMaxYears} years at daily granularity` }),
            );
          }
          return this.reply(res, 200, JSON.stringify(fxRatesBody(url.searchParams, this.fxHistoryUntil, this.fxHistoryWithheld)));
        }
        if (route.name === 'fxCurrencies') return this.reply(res, 200, JSON.stringify(fxCurrenciesBody()));
        {
          const fallback =
            route.name === 'quotes' ? QUOTES_FIXTURE[route.ticker as keyof typeof QUOTES_FIXTURE] : DEFAULT_FIXTURE[route.name as FixedRoute];
          const body = fixtureText(b.fixture ?? fallback);
          if (b.delayMs) setTimeout(() => this.reply(res, 200, body), b.delayMs);
          else this.reply(res, 200, body);
          return;
        }
    }
  }

  private replyBytes(res: http.ServerResponse, status: number, body: Uint8Array) {
    res.writeHead(status, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    res.end(body);
  }

  private reply(res: http.ServerResponse, status: number, body: string) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  }
}
