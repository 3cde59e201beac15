import { VERSION } from '../core/version';
import { storeAnswers } from '../status/report';
import { getStore } from '../store';
import { sendJson } from './respond';

// GET /api/health, for a load balancer (decisions §26); /metrics is lib/http/metrics.ts.

/** 200 `{status: 'ok', store, version}` while the store answers a read, else 503; never cached. */
export async function healthResponse(req: Request): Promise<Response> {
  const up = await storeAnswers();
  const body = { status: up ? 'ok' : 'unavailable', store: getStore().kind, version: VERSION };
  return sendJson(req, body, { status: up ? 200 : 503, cache: 'no-store' });
}
