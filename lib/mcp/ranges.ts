import type { ChartRange } from '../reference/instruments';
import { daysBefore } from '../calendar/dates';
import { oneOf } from '../schemas/query-fields';

// The MCP tools take ranges in the spelling their published contract uses (`1m` for a month);
// the chart endpoint spells them its own way (`1mo`). One explicit mapping, not a second list.

export const MCP_RANGE_TO_CHART = { '1m': '1mo', '3m': '3mo', '6m': '6mo', ytd: 'ytd', '1y': '1y', '2y': '2y', '5y': '5y' } as const satisfies Record<
  string,
  ChartRange
>;
export type McpRange = keyof typeof MCP_RANGE_TO_CHART;
export const MCP_RANGES = Object.keys(MCP_RANGE_TO_CHART) as [McpRange, ...McpRange[]];

/** The `range` argument both the history and the comparison tools take. */
export const McpRangeArg = oneOf('range', MCP_RANGES).default('1y');

const DAYS: Record<Exclude<McpRange, 'ytd'>, number> = { '1m': 30, '3m': 91, '6m': 182, '1y': 365, '2y': 730, '5y': 1826 };

/** The first date of `range`, counted back from the latest point (ytd: 1 January of its year). */
export function rangeStart(range: McpRange, latest: string): string {
  return range === 'ytd' ? `${latest.slice(0, 4)}-01-01` : daysBefore(latest, DAYS[range]);
}
