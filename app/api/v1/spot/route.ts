import { parseQuery } from '@/lib/http/query';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { SpotQuery } from '@/lib/schemas/spot';
import { getSpot, goldState, spotJson } from '@/lib/prices/spot';

const route = restRoute({
  state: goldState,
  get: async (req, url) =>
    sendResult(req, await getSpot(parseQuery(SpotQuery, url), { origin: publicOrigin(req.headers, req.url) }), {
      cache: 'spot',
      links: true,
      json: spotJson,
    }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
