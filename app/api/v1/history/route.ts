import { CSV_TABLES } from '@/lib/csv';
import { getHistoryFor, historyState } from '@/lib/history';
import { parseQuery } from '@/lib/http/query';
import { sendSeries } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { HistoryQuery } from '@/lib/schemas/history';

const route = restRoute({
  state: historyState,
  get: async (req, url) => {
    const query = parseQuery(HistoryQuery, url);
    // Daily data behind a 6-hour cache: five minutes at the edge keeps clients close to the source.
    const csv = query.series === 'spot' ? CSV_TABLES.spotHistory : CSV_TABLES.history;
    return sendSeries(req, await getHistoryFor(query), { cache: 'history', csv: query.format === 'csv' ? csv : undefined });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
