import { z } from 'zod';
import { getHistory, getSpotHistory } from '../../series/history';
import { History, HistoryQuery } from '../../schemas/history';
import { isUnavailable } from '../../sources/unavailable';
import { McpRangeArg, MCP_RANGES, rangeStart } from '../ranges';
import { fmt, freshness, tool, toolOutput } from '../tool';

export const getGoldHistory = tool({
  name: 'get_gold_history',
  title: 'Daily gold history',
  description:
    'Daily gold closes, highs and lows in USD per troy ounce for the chosen range, with the 52-week high and low, true ranges over the ' +
    'latest day, week, month and year, and the year-to-date and 1-year returns (the statistics always cover the whole series). ' +
    'series futures (default): COMEX front-month futures GC=F, which trade a little above spot, 5 years. series spot: the daily spot ' +
    'bars (open, high, low, close) this service records from the prices it serves, plus any the operator imported; it starts when the ' +
    'deployment does. date (YYYY-MM-DD) returns only that day. Updated daily; data_state says if the series is stale.',
  input: z.object({
    range: McpRangeArg.meta({ description: `Span of points returned, counted back from the latest: ${MCP_RANGES.join(', ')}` }),
    series: HistoryQuery.shape.series,
    date: HistoryQuery.shape.date,
  }),
  output: toolOutput(History),
  run: async ({ range, series, date }) => {
    const full = series === 'spot' ? await getSpotHistory() : await getHistory();
    if (isUnavailable(full)) return full;
    const name = series === 'spot' ? 'spot, recorded by this service' : 'COMEX futures GC=F';
    const stats =
      `52-week high ${fmt(full.high_52w)}, low ${fmt(full.low_52w)}; YTD ${fmt(full.return_ytd_pct)}%, 1-year ${fmt(full.return_1y_pct)}% ` +
      `(${freshness(full.data_state)}).`;
    if (date) {
      const points = full.points.filter((p) => p.d === date);
      const p = points[0];
      const summary = p
        ? `Gold daily (${name}, USD/oz) on ${date}: ${p.o === undefined ? '' : `open ${fmt(p.o)}, `}high ${fmt(p.h)}, low ${fmt(p.l)}, ${p.final === false ? 'latest (session in progress)' : 'close'} ${fmt(p.c)}. ${stats}`
        : `Gold daily (${name}): no point dated ${date} (not a trading day, or not in the series). ${stats}`;
      return { body: { ...full, points, count: points.length }, summary };
    }
    const latest = full.points[full.points.length - 1];
    if (!latest) {
      const summary = `Gold daily (${name}): no bars yet; the series starts with the first session this deployment records.`;
      return { body: full, summary };
    }
    const from = rangeStart(range, latest.d);
    const points = full.points.filter((p) => p.d >= from);
    const body = { ...full, points, count: points.length };
    const last = latest.final === false ? 'session in progress, latest price' : 'latest close';
    const summary = `Gold daily (${name}, USD/oz), ${range}: ${points.length} days from ${points[0]?.d} to ${latest.d}; ${last} ${fmt(latest.c)}. ${stats}`;
    return { body, summary };
  },
});
