import { CSV_TABLES } from '@/lib/csv';
import { parseQuery } from '@/lib/http/query';
import { sendSeries } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { getIntraday, intradayState } from '@/lib/intraday';
import { IntradayQuery } from '@/lib/schemas/intraday';

const route = restRoute({
  state: intradayState,
  get: async (req, url) => {
    const query = parseQuery(IntradayQuery, url);
    // A new point lands every 2 minutes: a minute of caching keeps the series at most one sample behind.
    return sendSeries(req, await getIntraday(query), { cache: 'intraday', csv: query.format === 'csv' ? CSV_TABLES.intraday : undefined });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
