import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { FORMATS, oneOf, refusal } from './query-fields';
import { INTRADAY_SYMBOLS, listed, METALS, type IntradaySymbol, type MetalSymbol } from '../reference/metals';

export const HISTORY_SERIES = ['futures', 'spot'] as const;

/** The metals with a daily spot series (`symbol`), named as the intraday series names them. */
export const HISTORY_SYMBOLS = INTRADAY_SYMBOLS;
/** The futures series is COMEX gold alone. */
export const FUTURES_SYMBOL = 'xau' satisfies IntradaySymbol;
/** `symbol` in a history body: the metal against USD, `XAUUSD` for the futures series. */
type Pair = `${MetalSymbol}USD`;
export const HISTORY_PAIRS = METALS.map((m) => `${m.symbol}USD` as Pair) as unknown as readonly [Pair, ...Pair[]];

const PAIRS_DESCRIPTION = `The metal against USD: \`XAUUSD\` for the futures series (COMEX gold) and gold's spot series; ${listed(
  METALS.filter((m) => m.intraday !== FUTURES_SYMBOL).map((m) => `\`${m.symbol}USD\` ${m.name.toLowerCase()}`),
)} for their spot series`;

/**
 * Another metal than gold with the futures series is refused, naming the one valid value and where the metal is
 * served, rather than answered with gold's futures under another name. REST and the MCP tool both apply it.
 */
export function futuresIsGold(query: { series?: string; symbol?: string }, ctx: z.RefinementCtx): void {
  if ((query.series ?? 'futures') !== 'futures' || query.symbol === undefined || query.symbol === FUTURES_SYMBOL) return;
  ctx.addIssue({
    code: 'custom',
    path: ['symbol'],
    input: query.symbol,
    params: { valid: [FUTURES_SYMBOL] },
    message: `${refusal('symbol', query.symbol, FUTURES_SYMBOL)} with series=futures, which is COMEX gold; ${listed(HISTORY_SYMBOLS.filter((s) => s !== FUTURES_SYMBOL))} have a daily series with series=spot`,
  });
}

/** A calendar date, YYYY-MM-DD; anything else, a value of another type too (an MCP argument), is the 400 `{error, valid}`. */
const dateRefusal = (iss: { input?: unknown }) => refusal('date', iss.input, 'a date written YYYY-MM-DD');
export const IsoDate = z
  .string({ error: dateRefusal })
  .refine(
    (d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    { error: dateRefusal, params: { valid: ['YYYY-MM-DD'] } },
  );

export const HistoryQuery = z
  .object({
    series: oneOf('series', HISTORY_SERIES).default('futures').meta({
      description:
        '`futures` (default): COMEX gold futures GC=F, 5 years. `spot`: the daily spot bars this service records from the prices it serves (and any an operator imported)',
    }),
    symbol: oneOf('symbol', HISTORY_SYMBOLS)
      .default(FUTURES_SYMBOL)
      .meta({
        description: `The metal of the spot series: ${METALS.map((m) => `\`${m.intraday}\` ${m.name.toLowerCase()}`).join(', ')} (default \`${FUTURES_SYMBOL}\`). The futures series is gold alone: with \`series=futures\` any other value is a 400`,
      }),
    date: IsoDate.optional().meta({
      // No example value: the docs' curl samples use every example, and a fixed date leaves a 5-year series in time.
      description: 'Only the point dated that day, YYYY-MM-DD (statistics unchanged); 404 when the series has none',
    }),
    format: oneOf('format', FORMATS)
      .default('json')
      .meta({ description: '`csv`: `date,close,high,low` (futures) or `date,open,high,low,close,origin,final,n` (spot), one row per trading day' }),
  })
  .superRefine(futuresIsGold);
export type HistoryQuery = z.infer<typeof HistoryQuery>;

const Range = z.object({ low: z.number().nullable(), high: z.number().nullable() });

export const History = z
  .object({
    symbol: z.enum(HISTORY_PAIRS).meta({ description: PAIRS_DESCRIPTION }),
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
  .meta({ description: 'Daily history of a metal (gold alone for the futures series) with 52-week, range and return statistics' })
  .register(components, { id: 'History' });
export type History = z.infer<typeof History>;
export type HistoryPoint = History['points'][number];
