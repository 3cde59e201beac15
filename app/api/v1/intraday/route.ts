import { parseQuery } from '@/lib/http/query';
import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { getIntraday, intradayState } from '@/lib/intraday';
import { IntradayQuery } from '@/lib/schemas/intraday';

const route = restRoute({
  state: intradayState,
  // A new point lands every 2 minutes: a minute of caching keeps the series at most one sample behind.
  get: async (req, url) => sendResult(req, await getIntraday(parseQuery(IntradayQuery, url)), { cache: 'public, max-age=60' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
