import { getChart, chartState } from '@/lib/chart';
import { isIntradayInterval } from '@/lib/chart-catalog';
import { parseQuery } from '@/lib/http/query';
import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { ChartQuery } from '@/lib/schemas/chart';

const route = restRoute({
  state: chartState,
  get: async (req, url) => {
    const query = parseQuery(ChartQuery, url);
    return sendResult(req, await getChart(query), { cache: `public, max-age=${isIntradayInterval(query.interval) ? 60 : 300}` });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
