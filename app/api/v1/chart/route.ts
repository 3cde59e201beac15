import { getChart, chartState } from '@/lib/chart';
import { isIntradayInterval } from '@/lib/chart-catalog';
import { CSV_TABLES } from '@/lib/csv';
import { parseQuery } from '@/lib/http/query';
import { sendSeries } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { ChartQuery } from '@/lib/schemas/chart';

const route = restRoute({
  state: chartState,
  get: async (req, url) => {
    const query = parseQuery(ChartQuery, url);
    return sendSeries(req, await getChart(query), {
      cache: isIntradayInterval(query.interval) ? 'chartIntraday' : 'chart',
      csv: query.format === 'csv' ? CSV_TABLES.chart : undefined,
    });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
