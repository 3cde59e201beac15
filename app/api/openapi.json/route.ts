import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';
import { openApiDocument } from '@/lib/docs/openapi';

const route = restRoute({
  get: async (req) => sendJson(req, openApiDocument(publicOrigin(req.headers, req.url)), { cache: 'openapi', links: true }),
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
