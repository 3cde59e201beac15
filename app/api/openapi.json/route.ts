import { publicOrigin, sendJson } from '@/lib/http/respond';
import { openApiDocument } from '@/lib/openapi';

export function GET(req: Request): Response {
  return sendJson(req, openApiDocument(publicOrigin(req)), { cache: 'openapi' });
}
