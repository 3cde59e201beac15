// Most settings the service reads from its environment. The rest are read where they are used:
// PORT, HOSTNAME and NEXT_DIST_DIR by server.mjs and next.config.ts, RESPONSE_CACHE and
// RESPONSE_CACHE_MB by server/response-cache.mjs, PUBLIC_URL, TRUST_PROXY and VERCEL by
// lib/http/public-origin.mjs (VERCEL also by instrumentation.ts),
// MCP_RATE_WINDOW_S by lib/mcp/rate-limit.ts, BENCH_FLOOR by app/api/bench-floor. docs/configuration.md
// lists every one (tests/unit/docs/readme.test.ts keeps it so).
// Read lazily so tests and the sampler see the values of the process they run in.

function num(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

function url(name: string, fallback: string): string {
  return (process.env[name] || fallback).replace(/\/+$/, '');
}

export const config = {
  upstream: {
    gold: () => url('GOLD_API_URL', 'https://api.gold-api.com'),
    fx: () => url('FX_API_URL', 'https://open.er-api.com'),
    crypto: () => url('CRYPTO_API_URL', 'https://api.coingecko.com'),
    chart: () => url('CHART_API_URL', 'https://query1.finance.yahoo.com'),
    reserves: () => url('RESERVES_API_URL', 'https://api.db.nomics.world'),
    quotes: () => url('QUOTES_API_URL', 'https://forex-data-feed.swissquote.com'),
    /**
     * The World Bank's monthly workbook (a full URL, not a base): the "Monthly prices" link of
     * https://www.worldbank.org/en/research/commodity-markets. The path names the workbook's yearly edition,
     * so a new edition that moves it is followed by setting this variable.
     */
    monthlyPrices: () =>
      url(
        'MONTHLY_PRICES_URL',
        'https://thedocs.worldbank.org/en/doc/74e8be41ceb20fa0da750cda2f6b9e4e-0050012026/related/CMO-Historical-Data-Monthly.xlsx',
      ),
    /** Historical exchange rates (Frankfurter v2), decisions §24. */
    fxHistory: () => url('FX_HISTORY_API_URL', 'https://api.frankfurter.dev'),
  },
  /** Milliseconds a single upstream request may take before it counts as down. */
  upstreamTimeoutMs: () => num('UPSTREAM_TIMEOUT_MS', 5000),
  /** Folder of the embedded store. */
  dataDir: () => process.env.DATA_DIR || './.data',
  /** Test-only: when set, every cache TTL becomes this many seconds. */
  ttlOverrideS: () => num('CACHE_TTL_S', 0) || null,
  /** Test-only: the market calendar reads the clock shifted by this many seconds (may be negative). */
  marketClockOffsetS: () => {
    const n = Number(process.env.MARKET_CLOCK_OFFSET_S || 0);
    return Number.isFinite(n) ? n : 0;
  },
  /** Sampler period and bucket width, seconds (default 120). */
  sampleIntervalS: () => num('SAMPLE_INTERVAL_S', 120),
  samplerEnabled: () => (process.env.SAMPLER ?? '').toLowerCase() !== 'off',
  /** Fetch the live feeds when the server starts (tests that count upstream calls from a cold start turn it off). */
  warmFeeds: () => (process.env.WARM_FEEDS ?? '').toLowerCase() !== 'off',
  cronSecret: () => process.env.CRON_SECRET || null,
  /** Record every upstream attempt for the status page (decisions §26); `OUTCOMES=off` only to measure what it costs (bench). */
  outcomesEnabled: () => (process.env.OUTCOMES ?? '').toLowerCase() !== 'off',
  /** The Bearer token /metrics asks for; without one, /metrics answers 404. */
  metricsToken: () => process.env.METRICS_TOKEN?.trim() || null,
  kv: () => {
    const url = process.env.KV_REST_API_URL?.trim();
    const token = process.env.KV_REST_API_TOKEN?.trim();
    return url && token ? { url, token } : null;
  },
  /** A Redis reached over TCP (`redis://` or `rediss://`, user and password in the URL); wins over KV when both are set. */
  redisUrl: () => process.env.REDIS_URL?.trim() || null,
  /** Prefix of every key in the shared store (KV or Redis), so deployments or test runs can share one database. */
  kvPrefix: () => process.env.KV_PREFIX ?? 'goldapi:',
  /** Milliseconds a single request to the shared store (KV or Redis) may take before it counts as down. */
  kvTimeoutMs: () => num('KV_TIMEOUT_MS', 1000),
  /** MiB every cache of the history answers may hold together (lib/series/cache-budget.ts, decisions §29); `0` keeps none. */
  seriesCacheMb: () => (process.env.SERIES_CACHE_MB?.trim() === '0' ? 0 : num('SERIES_CACHE_MB', 128)),
  /** The price stream, GET /api/v1/stream (decisions §21). */
  stream: {
    /** `STREAM=off` answers it 503. */
    enabled: () => (process.env.STREAM ?? '').toLowerCase() !== 'off',
    /** Seconds a stream stays open before it ends and the client reconnects: below Vercel's 300 s function limit there. */
    maxS: () => num('STREAM_MAX_S', process.env.VERCEL ? 280 : 3600),
    /** Open streams one instance holds; past it, 503 with Retry-After. */
    maxClients: () => num('STREAM_MAX_CLIENTS', 2000),
    /** Seconds of silence after which a stream gets a `heartbeat` event: idle proxies keep it open, and a client hearing none polls (tests shorten it). */
    heartbeatS: () => num('STREAM_HEARTBEAT_S', 15),
  },
};

/** TTL in milliseconds, honouring the test override. */
export function ttlMs(seconds: number): number {
  return (config.ttlOverrideS() ?? seconds) * 1000;
}
