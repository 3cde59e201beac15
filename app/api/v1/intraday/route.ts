import { getIntraday, intradayState } from '@/lib/intraday';
import { readParams } from '@/lib/http/query';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  state: intradayState,
  // A new point lands every 2 minutes: a minute of caching keeps the series at most one sample behind.
  get: async (req, url) => sendJson(req, await getIntraday(readParams(url, ['symbol', 'hours'])), { cache: 'intraday' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
