import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { INTRADAY_SYMBOLS, METALS } from '../reference/metals';
import { FORMATS, oneOf, wholeNumber } from './query-fields';

export { INTRADAY_SYMBOLS };
/** Longest window of the series one request returns, hours. */
export const MAX_HOURS = 48;

export const IntradayQuery = z.object({
  symbol: oneOf('symbol', INTRADAY_SYMBOLS)
    .default('xau')
    .meta({ description: METALS.map((m) => `\`${m.intraday}\` ${m.name.toLowerCase()}`).join(', ') }),
  hours: wholeNumber('hours', 1, MAX_HOURS)
    .default(24)
    .meta({ description: `Window, whole hours 1 to ${MAX_HOURS}`, examples: [6] }),
  format: oneOf('format', FORMATS).default('json').meta({ description: '`csv`: `time,price`, one row per sample' }),
});
export type IntradayQuery = z.output<typeof IntradayQuery>;

export const Intraday = z
  .object({
    symbol: z.enum(INTRADAY_SYMBOLS),
    hours: z.number().int(),
    points: z
      .array(
        z.object({
          t: z.number().int().meta({ description: 'Unix seconds of the sample' }),
          p: z.number().meta({ description: 'USD per troy ounce' }),
        }),
      )
      .meta({ description: 'Recorded samples, oldest first; never interpolated' }),
    count: z.number().int().nonnegative(),
    coverage_seconds: z.number().int().nonnegative().meta({ description: 'Last t − first t (0 for fewer than two points): how warm the series is' }),
    interval_seconds: z.number().int().meta({ description: 'Sampling period of the recorder' }),
    source: z.string(),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'The first-party series: the live spot recorded every 2 minutes, kept 14 days' })
  .register(components, { id: 'Intraday' });
export type Intraday = z.infer<typeof Intraday>;
