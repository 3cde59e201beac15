// What the chart endpoint can serve: its symbols (each mapped to the upstream ticker on the
// server, so nothing a client sends reaches the upstream URL), ranges and intervals, and how far
// back each intraday interval reaches. Every surface (REST, MCP, OpenAPI, widgets, builder) reads
// these lists from here.

export const CHART_SYMBOLS = ['xau', 'silver', 'bitcoin', 'sp500', 'nasdaq', 'dxy', 'eurusd', 'oil', 'platinum', 'palladium'] as const;
export type ChartSymbol = (typeof CHART_SYMBOLS)[number];

export const CHART_RANGES = ['1d', '5d', '1mo', '3mo', '6mo', 'ytd', '1y', '2y', '5y', '10y', 'max'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

export const CHART_INTERVALS = ['1m', '2m', '5m', '15m', '30m', '60m', '90m', '1h', '1d', '5d', '1wk', '1mo'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];

export const INSTRUMENTS: Record<ChartSymbol, { ticker: string; name: string }> = {
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

/** Minute and hourly bars: they move by the minute and the upstream keeps them only so long. */
export function isIntradayInterval(interval: ChartInterval): boolean {
  return interval.endsWith('m') || interval === '1h';
}

const MINUTES_REACH: readonly ChartRange[] = ['1d', '5d', '1mo'];
const HOURLY_REACH: readonly ChartRange[] = ['1d', '5d', '1mo', '3mo', '6mo', 'ytd', '1y'];

/** Ranges each intraday interval can reach: the upstream keeps 1m bars ~8 days, 2–90m ~60 days, hourly ~730 days. */
export const REACH: Partial<Record<ChartInterval, { ranges: readonly ChartRange[]; why: string }>> = {
  '1m': { ranges: ['1d', '5d'], why: '1-minute bars reach back about 8 days' },
  '2m': { ranges: MINUTES_REACH, why: '2- to 90-minute bars reach back about 60 days' },
  '5m': { ranges: MINUTES_REACH, why: '2- to 90-minute bars reach back about 60 days' },
  '15m': { ranges: MINUTES_REACH, why: '2- to 90-minute bars reach back about 60 days' },
  '30m': { ranges: MINUTES_REACH, why: '2- to 90-minute bars reach back about 60 days' },
  '90m': { ranges: MINUTES_REACH, why: '2- to 90-minute bars reach back about 60 days' },
  '60m': { ranges: HOURLY_REACH, why: 'hourly bars reach back about 730 days' },
  '1h': { ranges: HOURLY_REACH, why: 'hourly bars reach back about 730 days' },
};

/** Bars wider than the range would give one bar or none. */
export const TOO_WIDE: Partial<Record<ChartInterval, readonly ChartRange[]>> = {
  '5d': ['1d', '5d'],
  '1wk': ['1d', '5d'],
  '1mo': ['1d', '5d', '1mo'],
};

/** Why `interval` cannot serve `range`, with the ranges it can serve; null when it can. */
export function reachProblem(range: ChartRange, interval: ChartInterval): { message: string; valid: ChartRange[] } | null {
  const reach = REACH[interval];
  if (reach && !reach.ranges.includes(range)) {
    return {
      message: `Interval ${interval} cannot cover range ${range}: ${reach.why}. Valid ranges for ${interval}: ${reach.ranges.join(', ')}`,
      valid: [...reach.ranges],
    };
  }
  const wide = TOO_WIDE[interval];
  if (wide?.includes(range)) {
    const valid = CHART_RANGES.filter((r) => !wide.includes(r));
    return {
      message: `Interval ${interval} is wider than range ${range}: it would give one bar or none. Valid ranges for ${interval}: ${valid.join(', ')}`,
      valid,
    };
  }
  return null;
}
