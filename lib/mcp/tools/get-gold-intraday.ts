import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getIntraday, intradayState } from '../../intraday';
import { Intraday } from '../../schemas/intraday';
import { answer, fmt, freshness, toolOutput } from '../result';

const Input = z.object({
  symbol: z.enum(['xau', 'xag'], { error: 'symbol must be one of: xau, xag' }).default('xau').describe('xau (gold) or xag (silver)'),
  hours: z
    .number({ error: 'hours must be a whole number from 1 to 48' })
    .int({ error: 'hours must be a whole number from 1 to 48' })
    .min(1, { error: 'hours must be a whole number from 1 to 48' })
    .max(48, { error: 'hours must be a whole number from 1 to 48' })
    .default(24)
    .describe('Window in whole hours, 1 to 48'),
});

// Built once: a server is made per request, its schemas need not be.
const Output = toolOutput(Intraday);

export function registerGetGoldIntraday(server: McpServer) {
  server.registerTool(
    'get_gold_intraday',
    {
      title: 'Recorded intraday series',
      description:
        'The first-party series this service records: the live gold (xau) or silver (xag) spot in USD per troy ounce, sampled every 2 minutes ' +
        'while the market is open and kept 14 days, for the last 1 to 48 hours. Only real samples of the price spot serves, oldest first; gaps mean ' +
        'both sources were down or the market was closed (weekends, the daily break, holidays). coverage_seconds says how much of the window is ' +
        'covered. data_state describes the latest sample; a closed market does not make it stale.',
      inputSchema: Input,
      outputSchema: Output,
      annotations: { readOnlyHint: true, openWorldHint: true, title: 'Recorded intraday series' },
    },
    ({ symbol, hours }) =>
      answer(async () => {
        const body = await getIntraday({ symbol, hours: String(hours) });
        const name = symbol === 'xau' ? 'Gold' : 'Silver';
        const pts = body.points;
        if (pts.length === 0) {
          return { body, summary: `${name} intraday: no samples recorded in the last ${hours} h (unavailable); no figure is given.` };
        }
        const first = pts[0];
        const last = pts[pts.length - 1];
        const lo = Math.min(...pts.map((p) => p.p));
        const hi = Math.max(...pts.map((p) => p.p));
        const change = ((last.p / first.p - 1) * 100).toFixed(2);
        const summary =
          `${name} (${symbol.toUpperCase()}) intraday, USD per troy ounce, last ${hours} h: ${pts.length} samples; latest ${fmt(last.p)} at ` +
          `${new Date(last.t * 1000).toISOString()} (${freshness(body.data_state)}); range ${fmt(lo)}–${fmt(hi)}; change ${change}% since ` +
          `${new Date(first.t * 1000).toISOString()}.`;
        return { body, summary };
      }, intradayState),
  );
}
