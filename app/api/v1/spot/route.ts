import { readParams } from '@/lib/http/query';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { getSpot, goldState } from '@/lib/spot';

const route = restRoute({
  state: goldState,
  get: async (req, url) => {
    const params = readParams(url, ['currency', 'unit', 'compact', 'debug']);
    return sendJson(req, await getSpot(params, { origin: publicOrigin(req.headers, req.url) }), { cache: 'public, max-age=30', links: true });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
