import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { NOTHING } from '@/lib/sources/unavailable';
import { getStatus } from '@/lib/status/report';

const route = restRoute({
  // The record lives in the store: when an error answer is due, there is no state to name but none.
  state: async () => NOTHING,
  get: async (req) => sendResult(req, await getStatus(), { cache: 'status' }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
