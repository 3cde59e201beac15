import { stopping } from '../core/shutdown.mjs';
import { VERSION } from '../core/version';
import { storeAnswers } from '../status/report';
import { getStore } from '../store';
import { sendJson } from './respond';

// GET /api/health, for a load balancer (decisions §26, §29): about this instance, not its dependencies. An
// instance whose store does not answer still answers prices (from memory and the upstreams), so it stays in
// rotation and says it is degraded; only an instance that cannot serve (told to stop, draining) is a 503.
// /metrics is lib/http/prometheus.ts.

/**
 * 200 `{status: 'ok', store: <kind>, version}` while the store answers a read, 200 `{status: 'degraded', store:
 * 'down', version}` while it does not, 503 `{status: 'unavailable', store: <kind>, version}` once the server is stopping; never cached.
 */
export async function healthResponse(req: Request): Promise<Response> {
  // Stopping: said at once, without waiting on the store.
  if (stopping()) return sendJson(req, { status: 'unavailable', store: getStore().kind, version: VERSION }, { status: 503, cache: 'no-store' });
  const up = await storeAnswers();
  const store = up ? getStore().kind : 'down';
  return sendJson(req, { status: up ? 'ok' : 'degraded', store, version: VERSION }, { status: 200, cache: 'no-store' });
}
