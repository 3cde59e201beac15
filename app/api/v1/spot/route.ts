import { readParams } from '@/lib/http/query';
import { publicOrigin, send } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { getSpot, goldState, spotJson } from '@/lib/spot';

const route = restRoute({
  state: goldState,
  get: async (req, url) => {
    const params = readParams(url, ['currency', 'unit', 'compact', 'debug']);
    return send(req, spotJson(await getSpot(params, { origin: publicOrigin(req) })), { cache: 'spot' });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
