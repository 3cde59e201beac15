import { z } from 'zod';
import { getHistory, getSpotHistory, pointOn } from '../../series/history';
import { futuresIsGold, History, HistoryQuery } from '../../schemas/history';
import { metalByIntraday } from '../../reference/metals';
import { isUnavailable } from '../../sources/unavailable';
import { McpRangeArg, MCP_RANGES, rangeStart } from '../ranges';
import { fmt, freshness, tool, toolOutput } from '../tool';

export const getGoldHistory = tool({
  name: 'get_gold_history',
  title: 'Daily gold history',
  description:
    'Daily gold closes, highs and lows in USD per troy ounce for the chosen range, with the 52-week high and low, true ranges over the ' +
    'latest day, week, month and year, and the year-to-date and 1-year returns (the statistics always cover the whole series). ' +
    'series futures (default): COMEX front-month futures GC=F, which trade a little above spot, 5 years, gold only. series spot: the daily spot ' +
    'bars (open, high, low, close) this service records from the prices it serves, plus any the operator imported; it starts when the ' +
    'deployment does; symbol picks the metal (xau gold by default, xag silver, xpt platinum, xpd palladium). date (YYYY-MM-DD) returns ' +
    'only that day. Updated daily; data_state says if the series is stale.',
  input: z
    .object({
      range: McpRangeArg.meta({ description: `Span of points returned, counted back from the latest: ${MCP_RANGES.join(', ')}` }),
      series: HistoryQuery.shape.series,
      symbol: HistoryQuery.shape.symbol,
      date: HistoryQuery.shape.date,
    })
    .superRefine(futuresIsGold),
  output: toolOutput(History),
  view: 'chart',
  run: async ({ range, series, symbol, date }) => {
    const metal = metalByIntraday(symbol);
    const full = series === 'spot' ? await getSpotHistory(metal.id) : await getHistory();
    if (isUnavailable(full)) return full;
    const name = series === 'spot' ? 'spot, recorded by this service' : 'COMEX futures GC=F';
    const what = `${metal.name} daily`;
    const stats =
      `52-week high ${fmt(full.high_52w)}, low ${fmt(full.low_52w)}; YTD ${fmt(full.return_ytd_pct)}%, 1-year ${fmt(full.return_1y_pct)}% ` +
      `(${freshness(full.data_state)}).`;
    if (date) {
      const p = pointOn(full.points, date);
      const points = p ? [p] : [];
      const summary = p
        ? `${what} (${name}, USD/oz) on ${date}: ${p.o === undefined ? '' : `open ${fmt(p.o)}, `}high ${fmt(p.h)}, low ${fmt(p.l)}, ${p.final === false ? 'latest (session in progress)' : 'close'} ${fmt(p.c)}. ${stats}`
        : `${what} (${name}): no point dated ${date} (not a trading day, or not in the series). ${stats}`;
      return { body: { ...full, points, count: points.length }, summary };
    }
    const latest = full.points[full.points.length - 1];
    if (!latest) {
      const summary = `${what} (${name}): no bars yet; the series starts with the first session this deployment records.`;
      return { body: full, summary };
    }
    const from = rangeStart(range, latest.d);
    const points = full.points.filter((p) => p.d >= from);
    const body = { ...full, points, count: points.length };
    const last = latest.final === false ? 'session in progress, latest price' : 'latest close';
    const summary = `${what} (${name}, USD/oz), ${range}: ${points.length} days from ${points[0]?.d} to ${latest.d}; ${last} ${fmt(latest.c)}. ${stats}`;
    return { body, summary };
  },
});
