import { llmsText } from '@/lib/docs/llms';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { send } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  get: async (req) =>
    send(req, llmsText(publicOrigin(req.headers, req.url)), { contentType: 'text/plain; charset=utf-8', cache: 'llms', links: true }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
