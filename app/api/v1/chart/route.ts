import { chartState, getChart } from '@/lib/chart';
import { readParams } from '@/lib/http/query';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  state: chartState,
  get: async (req, url) => {
    const chart = await getChart(readParams(url, ['symbol', 'range', 'interval']));
    const intraday = chart.interval.endsWith('m') || chart.interval === '1h';
    return sendJson(req, chart, { cache: intraday ? 'chartIntraday' : 'chart' });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
