import { getHistory, historyState } from '@/lib/history';
import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  state: historyState,
  // Daily data behind a 6-hour cache: five minutes at the edge keeps clients close to the source.
  get: async (req) => sendResult(req, await getHistory(), { cache: 'public, max-age=300' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
