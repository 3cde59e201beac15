import { llmsText } from '@/lib/llms';
import { publicOrigin, send } from '@/lib/http/respond';

export function GET(req: Request): Response {
  return send(req, llmsText(publicOrigin(req)), { contentType: 'text/plain; charset=utf-8', cache: 'llms' });
}
