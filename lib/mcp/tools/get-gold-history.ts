import { z } from 'zod';
import { getHistory } from '../../history';
import { History } from '../../schemas/history';
import { isUnavailable } from '../../unavailable';
import { McpRangeArg, MCP_RANGES, rangeStart } from '../ranges';
import { fmt, freshness, tool, toolOutput } from '../tool';

export const getGoldHistory = tool({
  name: 'get_gold_history',
  title: 'Daily gold history',
  description:
    'Daily gold closes, highs and lows in USD per troy ounce (COMEX front-month futures GC=F, which trade a little above spot) for the ' +
    'chosen range, with the 52-week high and low, true ranges over the latest day, week, month and year, and the year-to-date and 1-year ' +
    'returns (the statistics always cover the whole 5-year series). Updated daily; data_state says if the series is stale.',
  input: z.object({
    range: McpRangeArg.meta({ description: `Span of points returned, counted back from the latest: ${MCP_RANGES.join(', ')}` }),
  }),
  output: toolOutput(History),
  run: async ({ range }) => {
    const full = await getHistory();
    if (isUnavailable(full)) return full;
    const latest = full.points[full.points.length - 1];
    const from = rangeStart(range, latest.d);
    const points = full.points.filter((p) => p.d >= from);
    const body = { ...full, points, count: points.length };
    const summary =
      `Gold daily (COMEX futures GC=F, USD/oz), ${range}: ${points.length} days from ${points[0]?.d} to ${latest.d}; latest close ` +
      `${fmt(latest.c)} (${freshness(full.data_state)}). 52-week high ${fmt(full.high_52w)}, low ${fmt(full.low_52w)}; ` +
      `YTD ${fmt(full.return_ytd_pct)}%, 1-year ${fmt(full.return_1y_pct)}%.`;
    return { body, summary };
  },
});
