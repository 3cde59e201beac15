import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { daysBefore, getHistory, historyState } from '../../history';
import { History } from '../../schemas/history';
import { answer, fmt, freshness, toolOutput } from '../result';

export const HISTORY_RANGES = ['1m', '3m', '6m', 'ytd', '1y', '2y', '5y'] as const;
const DAYS: Record<Exclude<(typeof HISTORY_RANGES)[number], 'ytd'>, number> = { '1m': 30, '3m': 91, '6m': 182, '1y': 365, '2y': 730, '5y': 1826 };

/** The first date of `range`, counted back from the latest point (ytd: 1 January of its year). */
export function rangeStart(range: (typeof HISTORY_RANGES)[number], latest: string): string {
  return range === 'ytd' ? `${latest.slice(0, 4)}-01-01` : daysBefore(latest, DAYS[range]);
}

const Input = z.object({
  range: z
    .enum(HISTORY_RANGES, { error: `range must be one of: ${HISTORY_RANGES.join(', ')}` })
    .default('1y')
    .describe('Span of points returned, counted back from the latest: 1m, 3m, 6m, ytd, 1y, 2y or 5y'),
});

// Built once: a server is made per request, its schemas need not be.
const Output = toolOutput(History);

export function registerGetGoldHistory(server: McpServer) {
  server.registerTool(
    'get_gold_history',
    {
      title: 'Daily gold history',
      description:
        'Daily gold closes, highs and lows in USD per troy ounce (COMEX front-month futures GC=F, which trade a little above spot) for the ' +
        'chosen range, with the 52-week high and low, true ranges over the latest day, week, month and year, and the year-to-date and 1-year ' +
        'returns (the statistics always cover the whole 5-year series). Updated daily; data_state says if the series is stale.',
      inputSchema: Input,
      outputSchema: Output,
      annotations: { readOnlyHint: true, openWorldHint: true, title: 'Daily gold history' },
    },
    ({ range }) =>
      answer(async () => {
        const full = await getHistory();
        const latest = full.points[full.points.length - 1];
        const from = rangeStart(range, latest.d);
        const points = full.points.filter((p) => p.d >= from);
        const body = { ...full, points, count: points.length };
        const summary =
          `Gold daily (COMEX futures GC=F, USD/oz), ${range}: ${points.length} days from ${points[0]?.d} to ${latest.d}; latest close ` +
          `${fmt(latest.c)} (${freshness(full.data_state)}). 52-week high ${fmt(full.high_52w)}, low ${fmt(full.low_52w)}; ` +
          `YTD ${fmt(full.return_ytd_pct)}%, 1-year ${fmt(full.return_1y_pct)}%.`;
        return { body, summary };
      }, historyState),
  );
}
