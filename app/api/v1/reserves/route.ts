import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { getReserves, reservesState } from '@/lib/reserves/holdings';

const route = restRoute({
  state: reservesState,
  // Monthly figures behind a 24-hour cache: an hour at the edge is plenty.
  get: async (req) => sendResult(req, await getReserves(), { cache: 'reserves' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
