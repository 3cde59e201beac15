// The process's Prometheus metrics (prom-client), served at /metrics when METRICS_TOKEN is set. One set per
// process on globalThis: npm start's server (server.mjs, its response cache) and every bundle Next builds
// (routes, instrumentation.ts) load this module apart, and a counter must be the same object for all of them.
// Labels stay few: route patterns, never URLs; upstream names from one table; a handful of kinds.
import client from 'prom-client';

const KEY = Symbol.for('goldapi.metrics');

/** Request paths the service serves, as the patterns metrics name them; anything else is `other`. */
const ROUTES = [
  [/^\/api\/v1\/(spot|intraday|history|chart|reserves|stream|status)(\.csv)?$/, (m) => `/api/v1/${m[1]}${m[2] ?? ''}`],
  [/^\/api\/(health|openapi\.json|cron\/sample)$/, (m) => `/api/${m[1]}`],
  [/^\/api\//, () => '/api/*'],
  [/^\/mcp$/, () => '/mcp'],
  [/^\/(llms\.txt|metrics|status)$/, (m) => `/${m[1]}`],
  [/^\/widgets\//, () => '/widgets/*'],
  [/^\/docs(\/|$)/, () => '/docs/*'],
  [/^\/_next\//, () => '/_next/*'],
  [/^\/$/, () => '/'],
];

/** The pattern of `pathname` for the `route` label. */
export function routeLabel(pathname) {
  for (const [re, name] of /** @type {[RegExp, (m: RegExpMatchArray) => string][]} */ (ROUTES)) {
    const m = pathname.match(re);
    if (m) return name(m);
  }
  return 'other';
}

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'goldapi_' });
  const r = [registry];
  return {
    registry,
    requests: new client.Counter({
      name: 'goldapi_http_requests_total',
      help: 'Answered requests by route pattern and status',
      labelNames: ['route', 'status'],
      registers: r,
    }),
    latency: new client.Histogram({
      name: 'goldapi_http_request_duration_seconds',
      help: 'Time to answer (until the last byte was handed to the socket), by route pattern',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: r,
    }),
    upstreamAttempts: new client.Counter({
      name: 'goldapi_upstream_attempts_total',
      help: 'Requests to an upstream, by upstream',
      labelNames: ['upstream'],
      registers: r,
    }),
    upstreamFailures: new client.Counter({
      name: 'goldapi_upstream_failures_total',
      help: 'Failed upstream requests, by upstream and kind (timeout, http, invalid, network)',
      labelNames: ['upstream', 'kind'],
      registers: r,
    }),
    responseCache: new client.Counter({
      name: 'goldapi_response_cache_total',
      help: "npm start's response cache: hits (stale ones included), misses and 304s it answered itself",
      labelNames: ['result'],
      registers: r,
    }),
    openStreams: new client.Gauge({ name: 'goldapi_open_streams', help: 'Open price streams (GET /api/v1/stream)', registers: r }),
    kvErrors: new client.Counter({
      name: 'goldapi_kv_errors_total',
      help: 'Failed KV requests: transport (KV unreachable, slow or refusing the token) or command (a defect)',
      labelNames: ['kind'],
      registers: r,
    }),
    recordWrites: new client.Counter({
      name: 'goldapi_record_writes_total',
      help: "Writes of the service's own record (daily bar folds, intraday points, upstream outcomes), by what and result",
      labelNames: ['what', 'result'],
      registers: r,
    }),
  };
}

/** @returns {ReturnType<typeof create>} */
export function metrics() {
  const g = /** @type {Record<symbol, ReturnType<typeof create> | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[KEY] ??= create());
}
