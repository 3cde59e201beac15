import { z } from 'zod';
import { ApiError } from '../../core/errors';
import { getHistoryFor } from '../../series/history';
import { futuresIsGold, History, HISTORY_RANGES, HistoryQuery, londonRules, monthlyRules, windowRules } from '../../schemas/history';
import { metalByIntraday } from '../../reference/metals';
import { UNIT_LIST, UNITS } from '../../reference/units';
import { oneOf } from '../../schemas/query-fields';
import { isUnavailable, unavailable } from '../../sources/unavailable';
import { fmt, freshness, tool, toolOutput } from '../tool';

const SERIES_NAMES = {
  futures: 'COMEX futures GC=F',
  spot: 'spot, recorded by this service',
  monthly: 'World Bank monthly average',
  london: "London-time reference, computed from this service's spot",
} as const;

/**
 * The most characters of JSON a history answer holds before the tool groups it (about 700 daily points in USD, fewer
 * converted ones): the result carries it twice (the text block and `structuredContent`), and stays under 100,000
 * characters and Claude Code's 25,000-token cap.
 */
const ANSWER_CHARS = 40_000;

/** Each series' groupings, finest first, that the tool tries when an answer is too large (those the series takes). */
const COARSER: Record<keyof typeof SERIES_NAMES, readonly ('week' | 'month' | 'year')[]> = {
  futures: ['week', 'month', 'year'],
  spot: ['week', 'month', 'year'],
  monthly: ['year'],
  london: ['year'],
};

export const getGoldHistory = tool({
  name: 'get_gold_history',
  title: 'Gold history in any currency and unit',
  description:
    'Gold (and silver, platinum, palladium) history in any currency and unit, each point converted at the central-bank reference rate of ' +
    'its own date, with the 52-week high and low, true ranges, YTD and 1-year returns (over the whole series) and the period change over ' +
    'the points returned. series futures (default): COMEX front-month futures GC=F, daily since 2000, gold only (trade a little above spot). ' +
    'series spot: the daily spot bars this service records (symbol xau, xag, xpt, xpd). series monthly: the World Bank monthly averages of ' +
    "xau, xag, xpt since 1960. Window: range (default 1y) or from/to (YYYY-MM-DD); group week|month|year makes bars (year: each year's " +
    'first, last, high, low, average and change from the year before, e.g. "gold in INR each year since 2010"); date (YYYY-MM-DD) returns ' +
    `the last point on or before that day (e.g. "gold in INR on my birthday"). currency: ISO 4217 (default USD); unit: ${UNITS.join(', ')}. ` +
    'data_state says if the series is stale. An answer too large for an agent (more than about 700 daily points) comes ' +
    'grouped by week, month or year, the text saying so and giving the CSV URL of every point.',
  input: z
    .object({
      range: oneOf('range', HISTORY_RANGES)
        .optional()
        .meta({
          description: `Span of points returned, counted back from the latest: ${HISTORY_RANGES.join(', ')} (default 1y unless from is given)`,
        }),
      series: HistoryQuery.shape.series,
      symbol: HistoryQuery.shape.symbol,
      time: HistoryQuery.shape.time,
      currency: HistoryQuery.shape.currency,
      unit: HistoryQuery.shape.unit,
      from: HistoryQuery.shape.from,
      to: HistoryQuery.shape.to,
      group: HistoryQuery.shape.group,
      date: HistoryQuery.shape.date,
    })
    .superRefine((args, ctx) => {
      futuresIsGold(args, ctx);
      monthlyRules(args, ctx);
      londonRules(args, ctx);
      windowRules(args, ctx);
    }),
  output: toolOutput(History),
  view: 'chart',
  run: async ({ range, series, symbol, time, currency, unit, from, to, group, date }, ctx) => {
    const window = { series, symbol, time, currency, unit, from, to, date, range: range ?? (from === undefined ? '1y' : undefined) };
    let body: Awaited<ReturnType<typeof getHistoryFor>>;
    try {
      body = await getHistoryFor({ ...window, group });
    } catch (err) {
      // A date before the first point is an ordinary answer: there is no figure for it.
      if (err instanceof ApiError && err.status === 404) return unavailable(err.message, err.extra.data_state as History['data_state']);
      throw err;
    }
    // An answer an agent cannot take whole (decisions §33: Claude Code refuses a tool result past 25,000 tokens) is
    // grouped, as coarsely as it takes, and says so with where every point is.
    let fitted = '';
    if (!date && group === undefined && !isUnavailable(body)) {
      const asked = body;
      for (const coarser of COARSER[series]) {
        if (JSON.stringify(body).length <= ANSWER_CHARS) break;
        const grouped = await getHistoryFor({ ...window, group: coarser });
        if (isUnavailable(grouped)) break;
        body = grouped;
        fitted = coarser;
      }
      if (fitted) {
        const every = `${ctx.origin}/api/v1/history.csv?${new URLSearchParams(Object.entries(window).filter((e): e is [string, string] => typeof e[1] === 'string'))}`;
        fitted =
          ` Grouped by ${fitted} to fit an agent's answer: the ${asked.count} points of the window would pass about ` +
          `${Math.round(ANSWER_CHARS / 1000)},000 characters of JSON; every point is at ${every} (CSV; the same query without .csv answers JSON).`;
      }
    }
    if (isUnavailable(body)) return body;
    const metal = metalByIntraday(symbol);
    // Prices in the text as precise as in the body: a gram or a grain takes 4 decimals.
    const entry = UNIT_LIST.find((u) => u.label === (body.unit ?? 'troy_oz'));
    const f = (n: number | null | undefined) => fmt(n, entry?.decimals ?? 2);
    const name = SERIES_NAMES[series];
    const per = `${body.currency ?? 'USD'} per ${entry?.name ?? 'troy ounce'}`;
    const what =
      series === 'london'
        ? `${metal.name} at ${body.london_time} London time, daily (${name}, ${per})`
        : `${metal.name} ${series === 'monthly' ? 'monthly' : 'daily'} (${name}, ${per})`;
    // A currency that ended, and points a gap in its rates left out, said as the body says them (decisions §29).
    const fxLimits = (fx: NonNullable<History['fx']>) =>
      `${fx.until ? ` until ${fx.until} (the currency ended; no point after it)` : ''}` +
      `${fx.left_out ? `; ${fx.left_out} points left out where no rate was published within 7 days before them` : ''}`;
    const rate = (p: History['points'][number]) =>
      p.fx === undefined
        ? ''
        : ` at ${fmt(p.fx, 6)} ${body.currency} per USD${p.fx_d ? ` (the rate of ${p.fx_d}, the last published on or before)` : ''}`;
    const stats =
      `52-week high ${f(body.high_52w)}, low ${f(body.low_52w)}; YTD ${fmt(body.return_ytd_pct)}%, 1-year ${fmt(body.return_1y_pct)}% ` +
      `(${freshness(body.data_state)}). Source: ${body.source}${body.fx ? `; rates: ${body.fx.source}, from ${body.fx.from}${fxLimits(body.fx)}` : ''}.`;
    if (date) {
      const p = body.points[0];
      const on = p.d === date ? `on ${date}` : `on ${p.d} (the last point on or before ${date})`;
      const bar =
        p.p !== undefined
          ? `${f(p.p)}, taken at ${p.t}`
          : p.h === undefined
            ? `average ${f(p.c)}`
            : `${p.o === undefined ? '' : `open ${f(p.o)}, `}high ${f(p.h)}, low ${f(p.l)}, ${p.final === false ? 'latest (session in progress)' : 'close'} ${f(p.c)}`;
      return { body, summary: `${what} ${on}: ${bar}${rate(p)}. ${stats}` };
    }
    const last = body.points[body.points.length - 1];
    if (!last) {
      const why =
        series === 'spot' || series === 'london'
          ? `the series starts with the first ${series === 'spot' ? 'session' : 'London business day'} this deployment records`
          : 'no point in the window asked';
      return { body, summary: `${what}: no points (${why}). ${stats}` };
    }
    const p = body.period;
    const count = body.interval === 'daily' ? 'days' : body.interval === 'yearly' ? 'years' : 'points';
    const summary =
      `${what}, ${p.from} to ${p.to}: ${body.count} ${count}; first ${f(p.first)}, last ${f(p.last)}${rate(last)}, ` +
      `change ${f(p.change)} (${fmt(p.change_pct)}%), high ${f(p.high)}, low ${f(p.low)}.${years(body, f)}${fitted} ${stats}`;
    return { body, summary };
  },
});

/**
 * Yearly bars in words (decisions §32): " By year (close, average, change from the year before): 2024 2,641.00, avg
 * 2,388.20, +27.2%; …", saying when they are made of monthly averages. Empty for any other answer.
 */
function years(body: History, f: (n: number | null | undefined) => string): string {
  if (body.interval !== 'yearly') return '';
  const of = body.bars_of === 'monthly_averages' ? ', each from monthly averages' : '';
  const change = (pct: number | null | undefined) => (pct === null || pct === undefined ? 'no year before' : `${pct > 0 ? '+' : ''}${fmt(pct)}%`);
  return ` By year (close, average, change from the year before${of}): ${body.points
    .map((p) => `${p.d.slice(0, 4)} ${f(p.c)}, avg ${f(p.avg)}, ${change(p.change_pct)}`)
    .join('; ')}.`;
}
