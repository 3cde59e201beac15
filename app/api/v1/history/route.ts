import { getHistory, historyState } from '@/lib/history';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  state: historyState,
  // Daily data behind a 6-hour cache: five minutes at the edge keeps clients close to the source.
  get: async (req) => sendJson(req, await getHistory(), { cache: 'history' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
