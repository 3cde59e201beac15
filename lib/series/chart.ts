import { INSTRUMENTS, isIntradayInterval, type ChartInterval, type ChartRange, type ChartSymbol } from '../reference/instruments';
import { toDataState } from '../sources/data-state';
import { Feed, type Sourced } from '../sources/freshness';
import type { Chart, ChartQuery } from '../schemas/chart';
import type { DataState } from '../schemas/common';
import { unavailable, type Unavailable } from '../sources/unavailable';
import { CHART_API_NAME, fetchChart, type ChartData } from '../sources/upstream/chart';

// GET /api/v1/chart: OHLCV bars proxied from the chart upstream. The client never reaches the
// upstream URL except through the fixed symbol map and the fixed range and interval lists.

/** Seconds a combination stays cached: intraday bars move by the minute, daily by the session. */
function ttlFor(interval: ChartInterval): number {
  if (isIntradayInterval(interval)) return 60;
  return interval === '1d' ? 15 * 60 : 3600;
}

// One feed per combination; the key space is the fixed lists, so the map stays bounded.
const feeds = new Map<string, Feed<ChartData>>();
function feedFor(symbol: ChartSymbol, range: ChartRange, interval: ChartInterval): Feed<ChartData> {
  const key = `chart:${symbol}:${range}:${interval}`;
  let feed = feeds.get(key);
  if (!feed) {
    feed = new Feed<ChartData>({
      name: key,
      ttlS: ttlFor(interval),
      fetch: async (): Promise<Sourced<ChartData>> => {
        const data = await fetchChart(INSTRUMENTS[symbol].ticker, range, interval);
        const fetchedAt = Date.now();
        const last = data.bars[data.bars.length - 1];
        return { value: data, asOf: last ? Math.min(last.t * 1000, fetchedAt) : fetchedAt, fetchedAt };
      },
    });
    feeds.set(key, feed);
  }
  return feed;
}

export async function getChart({ symbol, range, interval }: Pick<ChartQuery, 'symbol' | 'range' | 'interval'>): Promise<Chart | Unavailable> {
  const feed = feedFor(symbol, range, interval);
  const reading = await feed.read();
  const now = Date.now();
  const data_state = toDataState(reading, now);
  if (!reading.value) {
    return unavailable(
      `Chart data unavailable: ${CHART_API_NAME} failed (${feed.lastError ?? 'no answer'}) and no copy is cached. Retry shortly.`,
      data_state,
      now,
    );
  }
  const { ticker, name } = INSTRUMENTS[symbol];
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
