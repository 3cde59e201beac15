import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { itemList, itemsState } from '@/lib/prices/value';

// The bullion coins /api/v1/value takes as `item`, from their mints' published specifications (lib/data/bullion-coins.json).
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = restRoute({
  state: async () => itemsState(),
  get: async (req) => sendResult(req, itemList(), { cache: 'items' }),
});
