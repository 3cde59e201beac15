import { z } from 'zod';
import { components } from './components';
import { FORMATS } from '../csv';
import { DataState, Timestamp } from './common';
import { oneOf } from './query-fields';

export const HistoryQuery = z.object({
  format: oneOf('format', FORMATS).default('json').meta({ description: '`csv`: `date,close,high,low`, one row per trading day' }),
});

const Range = z.object({ low: z.number().nullable(), high: z.number().nullable() });

export const History = z
  .object({
    symbol: z.literal('XAUUSD'),
    interval: z.literal('daily'),
    source: z.string().meta({ description: 'What the series is: COMEX gold futures (GC=F), which trade a little above spot' }),
    points: z
      .array(
        z.object({
          d: z.string().meta({ description: 'Trading date, YYYY-MM-DD (New York)' }),
          c: z.number().meta({ description: 'Close, USD per troy ounce' }),
          h: z.number().meta({ description: 'Daily high' }),
          l: z.number().meta({ description: 'Daily low' }),
        }),
      )
      .meta({ description: 'Up to 5 years, oldest first, one per trading day' }),
    count: z.number().int(),
    high_52w: z.number().nullable().meta({ description: 'Highest high over the 365 days to the latest point' }),
    low_52w: z.number().nullable(),
    ranges: z
      .object({ day: Range, week: Range, month: Range, year: Range })
      .meta({ description: 'True low and high over the latest day and the 7, 30 and 365 days to it' }),
    return_ytd_pct: z.number().nullable().meta({ description: 'Latest close versus the last close of the previous year, percent' }),
    return_1y_pct: z.number().nullable().meta({ description: 'Latest close versus the close about 365 days earlier, percent' }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'Daily gold history with 52-week, range and return statistics' })
  .register(components, { id: 'History' });
export type History = z.infer<typeof History>;
export type HistoryPoint = History['points'][number];
