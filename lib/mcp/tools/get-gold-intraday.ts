import { getIntraday } from '../../series/intraday';
import { listed, metalByIntraday, METALS } from '../../reference/metals';
import { Intraday, IntradayQuery } from '../../schemas/intraday';
import { isUnavailable } from '../../sources/unavailable';
import { fmt, freshness, tool, toolOutput } from '../tool';

const SYMBOLS = listed(
  METALS.map((m) => `${m.name.toLowerCase()} (${m.intraday})`),
  'or',
);

export const getGoldIntraday = tool({
  name: 'get_gold_intraday',
  title: 'Recorded intraday series',
  description:
    `The first-party series this service records: the live ${SYMBOLS} spot in USD per troy ounce, sampled every 2 minutes ` +
    'while the market is open and kept 14 days, for the last 1 to 48 hours. Only real samples of the price spot serves, oldest first; gaps mean ' +
    'both sources were down or the market was closed (weekends, the daily break, holidays). coverage_seconds says how much of the window is ' +
    'covered. data_state describes the latest sample: fresh while samples arrive, stale once three are missed while the market is open; a ' +
    'closed market does not make it stale.',
  // The REST query without `format`: a tool result is always JSON.
  input: IntradayQuery.omit({ format: true }),
  output: toolOutput(Intraday),
  view: 'chart',
  run: async ({ symbol, hours }) => {
    const body = await getIntraday({ symbol, hours });
    if (isUnavailable(body)) return body;
    const name = metalByIntraday(symbol).name;
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
  },
});
