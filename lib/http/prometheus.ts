import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { config } from '../core/config';
import { metrics } from '../core/metrics.mjs';
import { streamHub } from './stream-hub';
import { alertCounts } from '../alerts/evaluate';
import { seriesCache } from '../series/cache-budget';

// /metrics for Prometheus (decisions §26): prom-client's registry with its default process metrics and the
// service's own families (lib/core/metrics.mjs), in the text exposition format. Only this route loads
// prom-client, so no page bundle carries it.

const SLOT = Symbol.for('goldapi.prometheus');

/** One registry per process (the route may be loaded more than once). */
function registry(): Registry {
  const g = globalThis as Record<symbol, Registry | undefined>;
  if (!g[SLOT]) {
    const r = new Registry();
    collectDefaultMetrics({ register: r, prefix: 'goldapi_' });
    for (const family of Object.values(metrics())) r.registerMetric(family as never);
    g[SLOT] = r;
  }
  return g[SLOT];
}

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });

/**
 * The exposition, only with METRICS_TOKEN set and sent as `Authorization: Bearer <token>`. Without the setting
 * /metrics does not exist (404); with it, a request without the right token gets 401.
 */
export async function metricsResponse(req: Request): Promise<Response> {
  const token = config.metricsToken();
  if (!token) return plain(404, 'Not found\n');
  const sent = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  const [a, b] = [Buffer.from(sent), Buffer.from(token)];
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    return plain(401, 'Unauthorized: send Authorization: Bearer $METRICS_TOKEN\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
  const r = registry();
  metrics().openStreams.set(streamHub().size);
  metrics().seriesCache.set(seriesCache().bytes, { kind: 'held' });
  metrics().seriesCache.set(seriesCache().maxBytes, { kind: 'budget' });
  const alerts = await alertCounts();
  for (const state of ['armed', 'pending', 'failing'] as const) metrics().alerts.set(alerts[state], { state });
  for (const kind of ['fired', 'delivered', 'failed'] as const) metrics().alertEvents.set(alerts[kind], { kind });
  return plain(200, await r.metrics(), { 'Content-Type': r.contentType });
}
