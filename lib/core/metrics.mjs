// The process's metrics, counted here and exposed by /metrics through prom-client (lib/http/prometheus.ts). The
// counting has no dependency, so any code may count (lib/ is bundled for pages too, where prom-client cannot
// go), and one set lives on globalThis: npm start's server (server.mjs, its response cache) and every bundle
// Next builds load this module apart, and a count must be the same for all of them. Each family answers
// prom-client's `get()`, so the registry exposes it as one of its own.
// Labels stay few: route patterns, never URLs; upstream names from one table; a handful of kinds.

const KEY = Symbol.for('goldapi.metrics');

/** Request paths the service serves, as the patterns metrics name them; anything else is `other`. */
const ROUTES = /** @type {[RegExp, (m: RegExpMatchArray) => string][]} */ ([
  [/^\/api\/v1\/(spot|intraday|history|chart|reserves|stream|status)(\.csv)?$/, (m) => `/api/v1/${m[1]}${m[2] ?? ''}`],
  [/^\/api\/v1\/alerts(\/[^/]+)?$/, (m) => (m[1] ? '/api/v1/alerts/{id}' : '/api/v1/alerts')],
  [/^\/api\/(health|openapi\.json|cron\/sample)$/, (m) => `/api/${m[1]}`],
  [/^\/api\//, () => '/api/*'],
  [/^\/mcp$/, () => '/mcp'],
  [/^\/(llms\.txt|metrics|status)$/, (m) => `/${m[1]}`],
  [/^\/widgets\//, () => '/widgets/*'],
  [/^\/docs(\/|$)/, () => '/docs/*'],
  [/^\/_next\//, () => '/_next/*'],
  [/^\/$/, () => '/'],
]);

/** The pattern of `pathname` for the `route` label. */
export function routeLabel(pathname) {
  for (const [re, name] of ROUTES) {
    const m = pathname.match(re);
    if (m) return name(m);
  }
  return 'other';
}

/** @typedef {Record<string, string>} Labels */

const keyOf = (/** @type {Labels} */ labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));

class Family {
  /** @param {'counter' | 'gauge'} type @param {string} name @param {string} help */
  constructor(type, name, help) {
    this.type = type;
    this.name = name;
    this.help = help;
    this.aggregator = 'sum';
    /** @type {Map<string, { labels: Labels, value: number }>} */
    this.values = new Map();
  }
  /** @param {Labels} [labels] @param {number} [n] */
  inc(labels = {}, n = 1) {
    const k = keyOf(labels);
    const v = this.values.get(k);
    if (v) v.value += n;
    else this.values.set(k, { labels, value: n });
  }
  /** @param {number} value @param {Labels} [labels] */
  set(value, labels = {}) {
    this.values.set(keyOf(labels), { labels, value });
  }
  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: [...this.values.values()] };
  }
  reset() {
    this.values.clear();
  }
}

class HistogramFamily {
  /** @param {string} name @param {string} help @param {number[]} buckets upper bounds, seconds */
  constructor(name, help, buckets) {
    this.type = 'histogram';
    this.name = name;
    this.help = help;
    this.aggregator = 'sum';
    this.buckets = buckets;
    /** @type {Map<string, { labels: Labels, counts: number[], sum: number, count: number }>} */
    this.values = new Map();
  }
  /** @param {Labels} labels @param {number} value */
  observe(labels, value) {
    const k = keyOf(labels);
    let v = this.values.get(k);
    if (!v) this.values.set(k, (v = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    const i = this.buckets.findIndex((b) => value <= b);
    if (i !== -1) v.counts[i]++;
    v.sum += value;
    v.count++;
  }
  async get() {
    const values = [];
    for (const v of this.values.values()) {
      let seen = 0;
      this.buckets.forEach((le, i) => {
        seen += v.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...v.labels, le }, value: seen });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...v.labels, le: '+Inf' }, value: v.count });
      values.push({ metricName: `${this.name}_sum`, labels: v.labels, value: v.sum });
      values.push({ metricName: `${this.name}_count`, labels: v.labels, value: v.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
  reset() {
    this.values.clear();
  }
}

function create() {
  return {
    requests: new Family('counter', 'goldapi_http_requests_total', 'Answered requests by route pattern and status'),
    latency: new HistogramFamily(
      'goldapi_http_request_duration_seconds',
      'Time to answer (until the last byte was handed to the socket), by route pattern',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    ),
    upstreamAttempts: new Family('counter', 'goldapi_upstream_attempts_total', 'Requests to an upstream, by upstream'),
    upstreamFailures: new Family(
      'counter',
      'goldapi_upstream_failures_total',
      'Failed upstream requests, by upstream and kind (timeout, http, invalid, network)',
    ),
    responseCache: new Family(
      'counter',
      'goldapi_response_cache_total',
      "npm start's response cache: hits (stale ones included), misses and 304s it answered itself",
    ),
    openStreams: new Family('gauge', 'goldapi_open_streams', 'Open price streams (GET /api/v1/stream)'),
    seriesCache: new Family(
      'gauge',
      'goldapi_series_cache_bytes',
      "The history caches' bytes: held, as charged to what they keep alive now, and budget, the most they may keep (a quarter of SERIES_CACHE_MB)",
    ),
    alerts: new Family('gauge', 'goldapi_alerts', 'Price alerts by state: armed, pending (waiting for the verification), failing'),
    alertEvents: new Family('gauge', 'goldapi_alert_events', 'Price alert events since the store began, every instance: fired, delivered, failed'),
    kvErrors: new Family(
      'counter',
      'goldapi_kv_errors_total',
      'Failed requests to the shared store (KV or Redis): transport (unreachable, slow, token or password refused) or command (a defect)',
    ),
    recordWrites: new Family(
      'counter',
      'goldapi_record_writes_total',
      "Writes of the service's own record (bar folds, intraday points, agreement, upstream outcomes), by what and result",
    ),
  };
}

/** @returns {ReturnType<typeof create>} */
export function metrics() {
  const g = /** @type {Record<symbol, ReturnType<typeof create> | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[KEY] ??= create());
}
