import { z } from 'zod';
import { components } from './components';
import { CHART_INTERVALS, CHART_RANGES, CHART_SYMBOLS, reachProblem } from '../reference/instruments';
import { DataState, Timestamp } from './common';
import { FORMATS, oneOf } from './query-fields';

export const ChartQuery = z
  .object({
    symbol: oneOf('symbol', CHART_SYMBOLS)
      .default('xau')
      .meta({ description: 'Asset', examples: ['sp500'] }),
    range: oneOf('range', CHART_RANGES).default('3mo').meta({ description: 'Span back from now' }),
    interval: oneOf('interval', CHART_INTERVALS).default('1d').meta({
      description: 'Bar width. 1m reaches back about 8 days, 2m–90m about 60 days, 60m/1h about 730 days; daily and longer have no limit',
    }),
    format: oneOf('format', FORMATS).default('json').meta({ description: '`csv`: `time,open,high,low,close,volume`, one row per bar' }),
  })
  .superRefine((q, ctx) => {
    const problem = reachProblem(q.range, q.interval);
    if (problem) ctx.addIssue({ code: 'custom', path: ['range'], message: problem.message, params: { valid: problem.valid } });
  });
export type ChartQuery = z.output<typeof ChartQuery>;

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
  .meta({ description: 'OHLCV bars, ascending, from a third-party market data provider' })
  .register(components, { id: 'Chart' });
export type Chart = z.infer<typeof Chart>;
