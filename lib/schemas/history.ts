import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { FORMATS, oneOf } from './query-fields';

export const HISTORY_SERIES = ['futures', 'spot'] as const;

/** A calendar date, YYYY-MM-DD; anything else is the 400 `{error, valid}`. */
export const IsoDate = z
  .string()
  .refine(
    (d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      error: (iss) => `Invalid date: ${String(iss.input)}. Valid values: a date written YYYY-MM-DD`,
      params: { valid: ['YYYY-MM-DD'] },
    },
  );

export const HistoryQuery = z.object({
  series: oneOf('series', HISTORY_SERIES).default('futures').meta({
    description:
      '`futures` (default): COMEX gold futures GC=F, 5 years. `spot`: the daily spot bars this service records from the prices it serves (and any an operator imported)',
  }),
  date: IsoDate.optional().meta({
    // No example value: the docs' curl samples use every example, and a fixed date leaves a 5-year series in time.
    description: 'Only the point dated that day, YYYY-MM-DD (statistics unchanged); 404 when the series has none',
  }),
  format: oneOf('format', FORMATS)
    .default('json')
    .meta({ description: '`csv`: `date,close,high,low` (futures) or `date,open,high,low,close,origin,final,n` (spot), one row per trading day' }),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

const Range = z.object({ low: z.number().nullable(), high: z.number().nullable() });

export const History = z
  .object({
    symbol: z.literal('XAUUSD'),
    interval: z.literal('daily'),
    source: z.string().meta({
      description: 'What the series is: COMEX gold futures (GC=F), which trade a little above spot, or the daily spot bars recorded by this service',
    }),
    points: z
      .array(
        z.object({
          d: z.string().meta({ description: 'Trading date, YYYY-MM-DD (New York; for spot, the date on which the session closes)' }),
          o: z.number().optional().meta({ description: 'Spot series only: open, the first fresh price of the session' }),
          c: z.number().meta({ description: 'Close, USD per troy ounce' }),
          h: z.number().meta({ description: 'Daily high' }),
          l: z.number().meta({ description: 'Daily low' }),
          origin: z
            .enum(['recorded', 'imported'])
            .optional()
            .meta({ description: 'Spot series only: recorded by this service from the prices it served, or imported by the operator' }),
          final: z.boolean().optional().meta({
            description:
              'Spot series only: true once the session has closed; false for the session in progress, whose close is the latest price and whose high and low can still widen',
          }),
          n: z.number().int().nullable().optional().meta({
            description:
              'Spot series only: how many fresh prices were folded into the bar (a bar from few prices saw little of its session); null for an imported bar',
          }),
        }),
      )
      .meta({ description: 'Oldest first, one per trading day: up to 5 years of futures, or up to 10 years of spot bars' }),
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
