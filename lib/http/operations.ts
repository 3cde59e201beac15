import { timingSafeEqual } from 'node:crypto';
import { config } from '../core/config';
import { metrics } from '../core/metrics.mjs';
import { VERSION } from '../core/version';
import { storeAnswers } from '../status/report';
import { getStore } from '../store';
import { sendJson } from './respond';
import { streamHub } from './stream-hub';

// What an operator wires in (decisions §26): GET /api/health for a load balancer, /metrics for Prometheus.

/** 200 `{status: 'ok', store, version}` while the store answers a read, else 503; never cached. */
export async function healthResponse(req: Request): Promise<Response> {
  const up = await storeAnswers();
  const body = { status: up ? 'ok' : 'unavailable', store: getStore().kind, version: VERSION };
  return sendJson(req, body, { status: up ? 200 : 503, cache: 'no-store' });
}

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });

/**
 * The Prometheus exposition, only with METRICS_TOKEN set and sent as `Authorization: Bearer <token>`. Without the
 * setting /metrics does not exist (404); with it, a request without the right token gets 401.
 */
export async function metricsResponse(req: Request): Promise<Response> {
  const token = config.metricsToken();
  if (!token) return plain(404, 'Not found\n');
  const sent = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  const [a, b] = [Buffer.from(sent), Buffer.from(token)];
  if (a.length !== b.length || !timingSafeEqual(a, b))
    return plain(401, 'Unauthorized: send Authorization: Bearer $METRICS_TOKEN\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  const m = metrics();
  m.openStreams.set(streamHub().size);
  return plain(200, await m.registry.metrics(), { 'Content-Type': m.registry.contentType });
}
