import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { FORMATS, oneOf, refusal } from './query-fields';
import { INTRADAY_SYMBOLS, listed, metalByIntraday, METALS, type IntradaySymbol, type MetalSymbol } from '../reference/metals';
import { DEFAULT_LONDON_TIME, LONDON_TIME_NAMES, LONDON_TIMES, londonTimesOf } from '../reference/london-times';
import { UNIT_LABELS, UNIT_LIST, UNITS } from '../reference/units';

export const HISTORY_SERIES = ['futures', 'spot', 'monthly', 'london'] as const;
/** The metals of the World Bank's monthly series (no palladium). */
export const MONTHLY_SYMBOLS = ['xau', 'xag', 'xpt'] as const satisfies readonly IntradaySymbol[];
/** `range`: how far back from the latest point a window reaches (`ytd`: from 1 January of its year; `max`: every point). */
export const HISTORY_RANGES = ['1w', '1m', '3m', '6m', 'ytd', '1y', '2y', '5y', '10y', 'max'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];
/** `group`: the points as bars per ISO week, calendar month or calendar year. */
export const HISTORY_GROUPS = ['week', 'month', 'year'] as const;
export type HistoryGroup = (typeof HISTORY_GROUPS)[number];
/** The monthly series' points are months already: it groups only by year (`month` is taken and changes nothing). */
const MONTHLY_GROUPS = ['month', 'year'] as const satisfies readonly HistoryGroup[];
/** The london series has one value per London business day, grouped only into years. */
const LONDON_GROUPS = ['year'] as const satisfies readonly HistoryGroup[];

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

/** Palladium has no monthly series, and a monthly series has no weeks: each refused naming what is valid. */
export function monthlyRules(query: { series?: string; symbol?: string; group?: string }, ctx: z.RefinementCtx): void {
  if (query.series !== 'monthly') return;
  if (query.symbol !== undefined && !(MONTHLY_SYMBOLS as readonly string[]).includes(query.symbol)) {
    ctx.addIssue({
      code: 'custom',
      path: ['symbol'],
      input: query.symbol,
      params: { valid: [...MONTHLY_SYMBOLS] },
      message: `${refusal('symbol', query.symbol, MONTHLY_SYMBOLS.join(', '))} with series=monthly (the World Bank's monthly prices have no palladium)`,
    });
  }
  if (query.group !== undefined && !(MONTHLY_GROUPS as readonly string[]).includes(query.group)) {
    ctx.addIssue({
      code: 'custom',
      path: ['group'],
      input: query.group,
      params: { valid: [...MONTHLY_GROUPS] },
      message: `${refusal('group', query.group, MONTHLY_GROUPS.join(', '))} with series=monthly, whose points are months`,
    });
  }
}

/** Each metal's London times as words: "xau am (10:30) or pm (15:00)…". */
const LONDON_TIME_WORDS = METALS.map(
  (m) =>
    `${m.intraday} ${listed(
      Object.entries(LONDON_TIMES[m.id]).map(([name, hhmm]) => `\`${name}\` (${hhmm})`),
      'or',
    )}`,
).join('; ');

/**
 * The London series (decisions §30): `time` must be one of the metal's London times, is for that series alone, and the
 * series has one value a day, grouped only into years (decisions §32). Each refused naming what is valid.
 */
export function londonRules(query: { series?: string; symbol?: string; time?: string; group?: string }, ctx: z.RefinementCtx): void {
  if (query.series !== 'london') {
    if (query.time !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['time'],
        input: query.time,
        params: { valid: ['london'] },
        message: `time is for series=london (the London-time values); with series=${query.series ?? 'futures'} it means nothing. Valid values for series with time: london`,
      });
    }
    return;
  }
  const metal = metalByIntraday((query.symbol ?? FUTURES_SYMBOL) as IntradaySymbol);
  if (!metal) return;
  const valid = londonTimesOf(metal.id);
  if (query.time !== undefined && !(valid as string[]).includes(query.time)) {
    ctx.addIssue({
      code: 'custom',
      path: ['time'],
      input: query.time,
      params: { valid },
      message: `${refusal('time', query.time, valid.join(', '))} for ${metal.name.toLowerCase()} (${metal.intraday}): ${LONDON_TIME_WORDS}`,
    });
  }
  if (query.group !== undefined && !(LONDON_GROUPS as readonly string[]).includes(query.group)) {
    ctx.addIssue({
      code: 'custom',
      path: ['group'],
      input: query.group,
      params: { valid: [...LONDON_GROUPS] },
      message: `${refusal('group', query.group, LONDON_GROUPS.join(', '))} with series=london, which has one value per London business day: group into years, or leave group out`,
    });
  }
}

/** Today in UTC, YYYY-MM-DD: no date after it has a price. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** `from` after `to`, a date after today, or `range` with `from`: 400 `{error, valid}`. */
export function windowRules(query: { from?: string; to?: string; date?: string; range?: string }, ctx: z.RefinementCtx): void {
  const today = todayUtc();
  for (const name of ['from', 'to', 'date'] as const) {
    const value = query[name];
    if (value !== undefined && value > today) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        input: value,
        params: { valid: [`a date up to ${today}`] },
        message: `${name} ${value} is after today (${today}): no price exists for it yet. Valid values: a date up to ${today}`,
      });
      return;
    }
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    ctx.addIssue({
      code: 'custom',
      path: ['from'],
      input: query.from,
      params: { valid: [`a date on or before to (${query.to})`] },
      message: `from ${query.from} is after to ${query.to}. Valid values: a date on or before ${query.to}`,
    });
  }
  if (query.from !== undefined && query.range !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['range'],
      input: query.range,
      params: { valid: ['range or from, not both'] },
      message: `range and from both say where the window starts: give one of them. Valid values: range or from, not both`,
    });
  }
}

/** A calendar date, YYYY-MM-DD; anything else, a value of another type too (an MCP argument), is the 400 `{error, valid}`. */
const dateRefusal = (iss: { input?: unknown }) => refusal('date', iss.input, 'a date written YYYY-MM-DD');
export const IsoDate = z
  .string({ error: dateRefusal })
  .refine(
    (d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    { error: dateRefusal, params: { valid: ['YYYY-MM-DD'] } },
  );

const CURRENCY_VALUES = 'an ISO 4217 code with a rate history, such as USD, EUR, GBP, JPY or INR';
const UNIT_WORDS = UNIT_LIST.map((u) => (u.id === u.name ? u.id : `${u.id} (${u.name})`)).join(', ');

export const HistoryQuery = z
  .object({
    series: oneOf('series', HISTORY_SERIES).default('futures').meta({
      description:
        "`futures` (default): COMEX gold futures GC=F, every daily bar since 2000-08-30 (the window defaults to 5 years). `spot`: the daily spot bars this service records from the prices it serves (and any an operator imported). `monthly`: the World Bank's monthly average prices (Pink Sheet, CC BY 4.0) of gold, silver and platinum since 1960-01. `london`: this service's own spot at a London time of day (`time`), one value per London business day it observed; not the LBMA Gold or Silver Price, nor the LME's platinum and palladium prices",
    }),
    symbol: oneOf('symbol', HISTORY_SYMBOLS)
      .default(FUTURES_SYMBOL)
      .meta({
        description: `The metal of the spot series: ${METALS.map((m) => `\`${m.intraday}\` ${m.name.toLowerCase()}`).join(', ')} (default \`${FUTURES_SYMBOL}\`). The futures series is gold alone: with \`series=futures\` any other value is a 400`,
      }),
    time: oneOf('time', LONDON_TIME_NAMES)
      .optional()
      .meta({
        description: `With \`series=london\`: the London time of day (Europe/London) of the values, per metal: ${LONDON_TIME_WORDS}. Default \`${DEFAULT_LONDON_TIME.gold}\` for gold, platinum and palladium, \`${DEFAULT_LONDON_TIME.silver}\` for silver. Another metal's time is a 400 listing the metal's own`,
      }),
    currency: z
      .string({ error: (iss) => refusal('currency', iss.input, CURRENCY_VALUES) })
      .max(16, { error: (iss) => refusal('currency', iss.input, CURRENCY_VALUES) })
      .default('USD')
      .meta({
        description:
          "ISO 4217 code, case-insensitive (default USD): each point converted at the central-bank reference rate of its own date (Frankfurter), the monthly series at the month's average rate; a currency without a rate history is a 400 listing those with one",
        examples: ['EUR'],
      }),
    unit: oneOf('unit', UNITS, 'Unsupported unit')
      .default('oz')
      .meta({ description: `Weight unit of every price, as spot: ${UNIT_WORDS}` }),
    from: IsoDate.optional().meta({
      description: 'First date of the window, YYYY-MM-DD, inclusive (instead of `range`); after today or after `to`: 400',
    }),
    to: IsoDate.optional().meta({ description: 'Last date of the window, YYYY-MM-DD, inclusive (default: the latest point)' }),
    range: oneOf('range', HISTORY_RANGES)
      .optional()
      .meta({
        description: `Window counted back from the latest point, or from \`to\` when it is given: ${HISTORY_RANGES.join(', ')} (\`1w\` 7 days, \`ytd\` from 1 January of its year, \`max\` every point). Default \`5y\` for futures, \`max\` for spot, monthly and london`,
      }),
    group: oneOf('group', HISTORY_GROUPS)
      .optional()
      .meta({
        description:
          'Points grouped into bars per ISO `week`, calendar `month` or calendar `year` (open first, high max, low min, close last; `d` the first point’s date, `days` how many), each point at its own date’s rate before grouping. ' +
          '`year` adds `avg` (the average of the points’ closes) and `change`, `change_pct` against the last close of the year before (null when the series has no point in that year, as for its first year), taken from the series even when that close lies before the window. ' +
          'The monthly series takes `year` (its years count `months`, and are made of monthly averages: `bars_of` says so) and `month` (which changes nothing); the london series takes `year` alone',
      }),
    date: IsoDate.optional().meta({
      // No example value: the docs' curl samples use every example, and a fixed date leaves a 5-year series in time.
      description:
        'The last point on or before that day, YYYY-MM-DD, with its own `d` and `requested_date` (a Sunday gives Friday; statistics unchanged); 404 only before the first point',
    }),
    format: oneOf('format', FORMATS).default('json').meta({
      description:
        '`csv`: `date,close,high,low` (futures), `date,open,high,low,close,origin,final,n` (spot), `date,close` (monthly) or `date,price,time` (london, `time` the moment of the reading), one row per point; grouped bars `date,open,high,low,close,days`, yearly ones `date,open,high,low,close,avg,days,change,change_pct` (`months` for `days` on the monthly series); converted answers add `fx` and `fx_d`',
    }),
  })
  .superRefine((query, ctx) => {
    futuresIsGold(query, ctx);
    monthlyRules(query, ctx);
    londonRules(query, ctx);
    windowRules(query, ctx);
  });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

const Range = z.object({ low: z.number().nullable(), high: z.number().nullable() });

const Period = z
  .object({
    from: z.string().nullable().meta({ description: 'Date of the first point answered' }),
    to: z.string().nullable().meta({ description: 'Date of the last point answered' }),
    first: z.number().nullable().meta({ description: 'Close of the first point' }),
    last: z.number().nullable().meta({ description: 'Close of the last point' }),
    change: z.number().nullable().meta({ description: '`last` − `first`' }),
    change_pct: z.number().nullable().meta({ description: '(`last` ÷ `first` − 1) × 100, 2 decimals' }),
    high: z.number().nullable().meta({ description: 'Highest high of the points answered (highest close on the monthly series)' }),
    low: z.number().nullable().meta({ description: 'Lowest low of the points answered' }),
  })
  .meta({ description: 'The move over the points answered; null when there are none' });

export const History = z
  .object({
    symbol: z.enum(HISTORY_PAIRS).meta({ description: PAIRS_DESCRIPTION }),
    series: z.enum(HISTORY_SERIES).meta({
      description:
        'Which series the points are (as `series` asks): `futures` COMEX gold futures, `spot` the daily spot bars, `monthly` the World Bank monthly averages',
    }),
    interval: z
      .enum(['daily', 'weekly', 'monthly', 'yearly'])
      .meta({ description: '`daily`, `monthly` for the monthly series, or the bars of `group` (`weekly`, `monthly`, `yearly`)' }),
    source: z.string().meta({
      description:
        "What the series is: COMEX gold futures (GC=F), which trade a little above spot, the daily spot bars recorded by this service, the World Bank monthly averages, or the London-time values computed from this service's spot",
    }),
    points: z
      .array(
        z.object({
          d: z.string().meta({
            description: 'Trading date, YYYY-MM-DD (New York; for spot, the date on which the session closes; for london, the London date)',
          }),
          o: z.number().optional().meta({ description: 'Spot series only: open, the first fresh price of the session' }),
          c: z.number().optional().meta({
            description:
              "Close (the month's average on the monthly series), in `currency` per `unit`: USD per troy ounce by default; not on the london series",
          }),
          p: z.number().optional().meta({
            description:
              'London series only: the price at the London time, in `currency` per `unit` (USD per troy ounce by default): the first fresh spot price this service took at or after that minute, within 5 minutes',
          }),
          t: Timestamp.optional().meta({ description: 'London series only: when the service took that reading (ISO 8601 UTC)' }),
          h: z.number().optional().meta({ description: 'High (not on the monthly series)' }),
          l: z.number().optional().meta({ description: 'Low (not on the monthly series)' }),
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
          avg: z.number().optional().meta({
            description:
              'Yearly bars only: the average of the closes of the points in the year (on the monthly series an average of monthly averages), each at its own date’s rate, rounded once',
          }),
          days: z
            .number()
            .int()
            .optional()
            .meta({ description: 'Grouped bars of a daily series only: the points (trading days) in the week, month or year' }),
          months: z.number().int().optional().meta({ description: 'Yearly bars of the monthly series only: the months in the year' }),
          change: z.number().nullable().optional().meta({
            description:
              'Yearly bars only: `c` − the last close of the year before (as answered: rounded values, so the figures add up), taken from the series even when it lies before the window; null when the series has no point in that year',
          }),
          change_pct: z.number().nullable().optional().meta({
            description: 'Yearly bars only: (`c` ÷ the last close of the year before − 1) × 100, 2 decimals; null with `change`',
          }),
          fx: z.number().optional().meta({
            description: "Converted answers only: units of `currency` per USD applied to this point (the month's average rate on the monthly series)",
          }),
          fx_d: z.string().optional().meta({
            description: "Converted answers only: the date of that rate, when it is not the point's own (the last rate published before it)",
          }),
        }),
      )
      .meta({ description: 'Oldest first, one per trading day (month on the monthly series, bar with `group`), within the window asked' }),
    bars_of: z.enum(['daily', 'monthly_averages']).optional().meta({
      description:
        "Grouped answers only: what each bar is made of. `daily`: the series' daily points. `monthly_averages`: the monthly series' monthly averages, so a bar's open, high, low and close are monthly averages (its high the highest month's average, not a traded high) and its `avg` an average of monthly averages",
    }),
    count: z.number().int(),
    high_52w: z.number().nullable().meta({ description: 'Highest high over the 365 days to the latest point' }),
    low_52w: z.number().nullable(),
    ranges: z
      .object({ day: Range, week: Range, month: Range, year: Range })
      .meta({ description: 'True low and high over the latest day and the 7, 30 and 365 days to it' }),
    return_ytd_pct: z.number().nullable().meta({ description: 'Latest close versus the last close of the previous year, percent' }),
    return_1y_pct: z.number().nullable().meta({ description: 'Latest close versus the close about 365 days earlier, percent' }),
    period: Period,
    requested_date: z.string().optional().meta({ description: 'With `date=`: the date asked, beside the point answered (the last on or before it)' }),
    currency: z.string().optional().meta({ description: 'With `currency` or `unit`: the ISO 4217 code of every price' }),
    unit: z.enum(UNIT_LABELS).optional().meta({ description: 'With `currency` or `unit`: the weight unit of every price, as spot reports it' }),
    fx: z
      .object({
        source: z.string().meta({ description: 'Where the rates come from' }),
        from: z.string().meta({ description: "The currency's first rate: points before it are left out" }),
        until: z.string().optional().meta({
          description:
            "A currency that ended (the source's last rate is more than 7 days old, e.g. HRK after 2022-12-30): its last rate; points after it are left out",
        }),
        left_out: z.number().int().optional().meta({
          description:
            "Points of the window left out because the last rate before them is more than 7 days older (a gap in the currency's rates; on the monthly series, a month without a rate); absent when none",
        }),
      })
      .optional()
      .meta({ description: 'Converted answers only (a currency other than USD)' }),
    time: z
      .enum(LONDON_TIME_NAMES)
      .optional()
      .meta({ description: 'London series only: the London time of day of the values (`am`, `pm` or `noon`)' }),
    london_time: z
      .string()
      .optional()
      .meta({ description: 'London series only: that time as HH:MM, Europe/London (daylight saving observed)', examples: ['15:00'] }),
    license: z.string().optional().meta({ description: 'Monthly series only: the licence of the data (CC BY 4.0)' }),
    attribution: z.string().optional().meta({ description: 'Monthly series only: the attribution the licence asks for' }),
    description: z.string().optional().meta({ description: "Monthly series only: what the price is, in the World Bank's own words" }),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({
    description:
      'History of a metal (gold alone for the futures series) in any currency and unit, with 52-week, range and return statistics over the whole series and the move over the points answered',
  })
  .register(components, { id: 'History' });
export type History = z.infer<typeof History>;
export type HistoryPoint = History['points'][number];
