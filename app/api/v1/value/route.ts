import { parseQuery } from '@/lib/http/query';
import { sendResult } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { goldState } from '@/lib/prices/spot';
import { metalValue } from '@/lib/prices/value';
import { ValueQuery } from '@/lib/schemas/value';

// What a weight of metal, or a number of bullion coins, is worth at spot: the metal value, not a shop's price (lib/prices/value.ts).
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = restRoute({
  state: goldState,
  get: async (req, url) => sendResult(req, await metalValue(parseQuery(ValueQuery, url)), { cache: 'spot' }),
});
