import { z } from 'zod';
import { DataState, Timestamp } from './common';

export const CHART_SYMBOLS = ['xau', 'silver', 'bitcoin', 'sp500', 'nasdaq', 'dxy', 'eurusd', 'oil', 'platinum', 'palladium'] as const;
export const CHART_RANGES = ['1d', '5d', '1mo', '3mo', '6mo', 'ytd', '1y', '2y', '5y', '10y', 'max'] as const;
export const CHART_INTERVALS = ['1m', '2m', '5m', '15m', '30m', '60m', '90m', '1h', '1d', '5d', '1wk', '1mo'] as const;

export const ChartQuery = z.object({
  symbol: z.enum(CHART_SYMBOLS).default('xau').meta({ description: 'Asset', example: 'sp500' }),
  range: z.enum(CHART_RANGES).default('3mo').meta({ description: 'Span back from now' }),
  interval: z.enum(CHART_INTERVALS).default('1d').meta({
    description: 'Bar width. 1m reaches back about 8 days, 2m–90m about 60 days, 60m/1h about 730 days; daily and longer have no limit',
  }),
});

export const Chart = z
  .object({
    symbol: z.enum(CHART_SYMBOLS),
    range: z.enum(CHART_RANGES),
    interval: z.enum(CHART_INTERVALS),
    ticker: z.string().meta({ description: 'The upstream instrument behind the symbol' }),
    currency: z.string().nullable(),
    points: z.array(
      z.object({
        t: z.number().int().meta({ description: 'Bar start, unix seconds (the last bar of a session: its latest trade)' }),
        o: z.number(),
        h: z.number(),
        l: z.number(),
        c: z.number(),
        v: z.number().meta({ description: 'Volume, 0 where the market reports none' }),
      }),
    ),
    count: z.number().int(),
    source: z.string(),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ id: 'Chart', description: 'OHLCV bars, ascending, from a third-party market data provider' });
export type Chart = z.infer<typeof Chart>;
