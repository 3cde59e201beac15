import { toDataState } from './data-state';
import { Feed, type Sourced } from './freshness';
import { ApiError, invalidValue } from './http/errors';
import { CHART_INTERVALS, CHART_RANGES, CHART_SYMBOLS, type Chart } from './schemas/chart';
import type { DataState } from './schemas/common';
import { CHART_API_NAME, fetchChart, type ChartData } from './upstream/chart';

// GET /api/v1/chart: OHLCV bars proxied from the chart upstream. The client never reaches the
// upstream URL except through the fixed symbol map and the fixed range and interval lists.

type ChartSymbol = (typeof CHART_SYMBOLS)[number];
type Range = (typeof CHART_RANGES)[number];
type Interval = (typeof CHART_INTERVALS)[number];

export const TICKERS: Record<ChartSymbol, { ticker: string; name: string }> = {
  xau: { ticker: 'GC=F', name: 'COMEX gold futures' },
  silver: { ticker: 'SI=F', name: 'COMEX silver futures' },
  bitcoin: { ticker: 'BTC-USD', name: 'Bitcoin in USD' },
  sp500: { ticker: '^GSPC', name: 'S&P 500 index' },
  nasdaq: { ticker: '^IXIC', name: 'Nasdaq Composite index' },
  dxy: { ticker: 'DX-Y.NYB', name: 'US Dollar Index' },
  eurusd: { ticker: 'EURUSD=X', name: 'EUR/USD' },
  oil: { ticker: 'CL=F', name: 'WTI crude oil futures' },
  platinum: { ticker: 'PL=F', name: 'NYMEX platinum futures' },
  palladium: { ticker: 'PA=F', name: 'NYMEX palladium futures' },
};

/** Ranges each intraday interval can reach (the upstream keeps 1m bars ~8 days, 2–90m ~60 days, hourly ~730 days). */
const REACH: Partial<Record<Interval, { ranges: Range[]; why: string }>> = {
  '1m': { ranges: ['1d', '5d'], why: '1-minute bars reach back about 8 days' },
  '2m': { ranges: ['1d', '5d', '1mo'], why: '2- to 90-minute bars reach back about 60 days' },
  '60m': { ranges: ['1d', '5d', '1mo', '3mo', '6mo', 'ytd', '1y'], why: 'hourly bars reach back about 730 days' },
};
for (const i of ['5m', '15m', '30m', '90m'] as const) REACH[i] = REACH['2m'];
REACH['1h'] = REACH['60m'];

/** Bars wider than the range would give one bar or none. */
const TOO_WIDE: Partial<Record<Interval, Range[]>> = { '5d': ['1d', '5d'], '1wk': ['1d', '5d'], '1mo': ['1d', '5d', '1mo'] };

/** Seconds a combination stays cached: intraday bars move by the minute, daily by the session. */
function ttlFor(interval: Interval): number {
  if (interval.endsWith('m') || interval === '1h') return 60;
  return interval === '1d' ? 15 * 60 : 3600;
}

export function parseChartParams(p: { symbol?: string; range?: string; interval?: string }): { symbol: ChartSymbol; range: Range; interval: Interval } {
  const pick = <T extends string>(name: string, value: string | undefined, list: readonly T[], fallback: T): T => {
    if (value === undefined) return fallback;
    const v = value.toLowerCase() as T;
    if (!list.includes(v)) throw invalidValue(name, value, list);
    return v;
  };
  const symbol = pick('symbol', p.symbol, CHART_SYMBOLS, 'xau');
  const range = pick('range', p.range, CHART_RANGES, '3mo');
  const interval = pick('interval', p.interval, CHART_INTERVALS, '1d');
  const reach = REACH[interval];
  if (reach && !reach.ranges.includes(range)) {
    throw new ApiError(400, `Interval ${interval} cannot cover range ${range}: ${reach.why}. Valid ranges for ${interval}: ${reach.ranges.join(', ')}`, {
      valid: reach.ranges,
    });
  }
  if (TOO_WIDE[interval]?.includes(range)) {
    const valid = CHART_RANGES.filter((r) => !TOO_WIDE[interval]!.includes(r));
    throw new ApiError(400, `Interval ${interval} is wider than range ${range}: it would give one bar or none. Valid ranges for ${interval}: ${valid.join(', ')}`, {
      valid,
    });
  }
  return { symbol, range, interval };
}

// One feed per combination; the key space is the fixed lists above, so the map stays bounded.
const feeds = new Map<string, Feed<ChartData>>();
function feedFor(symbol: ChartSymbol, range: Range, interval: Interval): Feed<ChartData> {
  const key = `chart:${symbol}:${range}:${interval}`;
  let feed = feeds.get(key);
  if (!feed) {
    feed = new Feed<ChartData>({
      name: key,
      ttlS: ttlFor(interval),
      fetch: async (): Promise<Sourced<ChartData>> => {
        const data = await fetchChart(TICKERS[symbol].ticker, range, interval);
        const fetchedAt = Date.now();
        const last = data.bars[data.bars.length - 1];
        return { value: data, asOf: last ? Math.min(last.t * 1000, fetchedAt) : fetchedAt, fetchedAt };
      },
    });
    feeds.set(key, feed);
  }
  return feed;
}

export async function getChart(params: { symbol?: string; range?: string; interval?: string }): Promise<Chart> {
  const { symbol, range, interval } = parseChartParams(params);
  const feed = feedFor(symbol, range, interval);
  const reading = await feed.read();
  const now = Date.now();
  const data_state = toDataState(reading, now);
  if (!reading.value) {
    throw new ApiError(503, `Chart data unavailable: ${CHART_API_NAME} failed (${feed.lastError ?? 'no answer'}) and no copy is cached. Retry shortly.`, {
      data_state,
    });
  }
  const { ticker, name } = TICKERS[symbol];
  return {
    symbol,
    range,
    interval,
    ticker,
    currency: reading.value.meta.currency,
    points: reading.value.bars,
    count: reading.value.bars.length,
    source: `${name} (${ticker}) via ${CHART_API_NAME}`,
    data_state,
    updated_at: new Date(now).toISOString(),
  };
}

/** For error bodies: the default combination's state. */
export async function chartState(): Promise<DataState> {
  return toDataState(await feedFor('xau', '3mo', '1d').peek());
}
