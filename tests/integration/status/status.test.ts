import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../../package.json';
import { Status } from '@/lib/schemas/status';
import { GC_ROOM } from '@/lib/series/cache-budget';
import { readQuotes } from '@/lib/sources/upstream/quotes';
import { App } from '../../support/app';
import { dataDirWithBars } from '../../support/bars';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture, QUOTES_FIXTURE } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';
import { mcpClient } from '../../support/mcp';
import { RedisServer, UpstashBridge } from '../../support/upstash-bridge';

// Status and operations (decisions §26) against the built app and the fake upstream: what GET /api/v1/status says
// after the sources failed or disagreed in known ways, what the MCP tool says, health and metrics; then two
// instances sharing one KV.

/** Past the 1 s test TTL and the 1 s pause after a failed upstream call. */
const PAST_TTL = 1200;
const TOKEN = 'metrics-test-token';
/** Thursday 16 April 2026, 09:00 New York: the session of the bar fixture's last row, open. */
const APRIL_16 = Date.parse('2026-04-16T09:00:00-04:00');
/** The fixture's sessions from 12 March to 15 April 2026 (Good Friday, 3 April, was closed), two left out. */
const GAP = ['2026-03-24', '2026-03-25'];
const SESSIONS = [
  ...['12', '13', '16', '17', '18', '19', '20', '23', '24', '25', '26', '27', '30', '31'].map((d) => `2026-03-${d}`),
  ...['01', '02', '06', '07', '08', '09', '10', '13', '14', '15'].map((d) => `2026-04-${d}`),
];

const goldBody = fixture('goldapi-price-XAU.json');
const GOLD_API_ROUTES = ['gold', 'silver', 'platinum', 'palladium'] as const;

type StatusBody = ReturnType<typeof Status.parse>;
const upstream = (s: StatusBody, name: string) => s.upstreams.find((u) => u.name === name)!;

describe('status: one instance, sources failing and disagreeing in known ways', () => {
  let f: FakeUpstream;
  let app: App;
  const status = async () => {
    const r = await app.json<StatusBody>('/api/v1/status');
    expect(r.status).toBe(200);
    return Status.parse(r.body);
  };
  const spot = () => app.get('/api/v1/spot').then((r) => r.text());
  const goldApiCalls = () => GOLD_API_ROUTES.reduce((n, r) => n + f.calls[r], 0);

  beforeAll(async () => {
    f = await FakeUpstream.start();
    const dataDir = await dataDirWithBars(SESSIONS.filter((d) => !GAP.includes(d)));
    app = await App.start({ dataDir, env: { ...f.env(), CACHE_TTL_S: '1', METRICS_TOKEN: TOKEN, ...marketClockAt(APRIL_16) } });
  });
  afterAll(async () => {
    await app?.stop();
    await f?.close();
  });

  it('before any request: every source unused, the record read, the store answering, the version', async () => {
    const s = await status();
    expect(s.upstreams.map((u) => u.state)).toEqual(s.upstreams.map(() => 'unused'));
    expect(s.upstreams.map((u) => u.name)).toEqual(
      expect.arrayContaining(['gold-api.com', 'swissquote.com', 'open.er-api.com', 'frankfurter.dev', 'coingecko.com', 'World Bank']),
    );
    expect(s.upstreams).toHaveLength(8);
    expect(s.store).toEqual({ kind: 'embedded', answers: true, degraded_since: null });
    expect(s.version).toBe(pkg.version);
    expect(s.data_state.status).toBe('fresh');
  });

  it('two live sources set apart by 40 and then 200 basis points: median, largest gap and the cross-check failure match', async () => {
    const mid = readQuotes('XAU', fixture(QUOTES_FIXTURE.XAU), Date.now()).value.mid;
    for (const bp of [40, 200]) {
      f.set('gold', { mode: 'json', body: { ...goldBody, price: mid * (1 + bp / 10_000) } });
      await spot();
      await sleep(PAST_TTL);
    }
    await expect.poll(async () => (await status()).agreement.find((a) => a.metal === 'gold')!.pairs, { timeout: 10_000 }).toBe(2);
    const gold = (await status()).agreement.find((a) => a.metal === 'gold')!;
    expect(gold).toEqual({ metal: 'gold', pairs: 2, median_bp: 120, max_bp: 200, cross_check_failures: 1, threshold_bp: 150 });
  });

  it('imported bars with a gap: the sessions with no bar are listed, the session in progress is not final', async () => {
    const gold = (await status()).record.find((r) => r.metal === 'gold')!;
    expect(gold.missing_sessions).toEqual(GAP);
    expect(gold.sessions).toHaveLength(30);
    const last = gold.sessions[gold.sessions.length - 1];
    expect(last).toMatchObject({ date: '2026-04-16', final: false, origin: 'recorded' });
    expect(gold.sessions.find((s) => s.date === '2026-04-15')).toEqual({ date: '2026-04-15', n: null, final: true, origin: 'imported' });
    expect(gold.sessions.map((s) => s.date)).not.toContain('2026-04-03');
    // No bar for silver was ever kept: nothing is missing since a first bar that does not exist.
    expect((await status()).record.find((r) => r.metal === 'silver')!.missing_sessions).toEqual([]);
  });

  it('gold answers 500, then drops connections: last failure, kind and status right, counts add up to what the upstream saw, not ok', async () => {
    const before = f.calls.gold;
    f.set('gold', { mode: 'status', status: 500, text: '{"error":"internal"}' });
    for (let i = 0; i < 3; i++) {
      await spot();
      await sleep(PAST_TTL);
    }
    await expect
      .poll(async () => upstream(await status(), 'gold-api.com').last_failure, { timeout: 10_000 })
      .toMatchObject({ kind: 'http', status: 500 });
    f.set('gold', { mode: 'refuse' });
    for (let i = 0; i < 3; i++) {
      await spot();
      await sleep(PAST_TTL);
    }
    const failed = f.calls.gold - before;
    expect(failed).toBeGreaterThanOrEqual(6);
    await expect.poll(async () => upstream(await status(), 'gold-api.com').availability.d7.attempts, { timeout: 10_000 }).toBe(goldApiCalls());
    const s = await status();
    const g = upstream(s, 'gold-api.com');
    expect(g.last_failure).toMatchObject({ kind: 'network', status: null });
    expect(g.availability.d7).toEqual({ successes: goldApiCalls() - failed, attempts: goldApiCalls(), ratio: expect.any(Number) });
    expect(g.availability.h24).toEqual(g.availability.d7);
    expect(g.availability.d7.ratio).toBeCloseTo((goldApiCalls() - failed) / goldApiCalls(), 3);
    expect(g.state).not.toBe('ok');
    expect(g.latency_ms.samples).toBe(goldApiCalls() - failed);
    for (const name of ['swissquote.com', 'open.er-api.com', 'coingecko.com']) {
      const u = upstream(s, name);
      expect(u.state, name).toBe('ok');
      expect(u.last_failure, name).toBeNull();
    }
    expect(upstream(s, 'swissquote.com').availability.d7.attempts).toBe(f.calls.quotes);
    expect(upstream(s, 'World Bank').state).toBe('unused');
  });

  it('the MCP tool get_data_status returns what REST does, with a text summary', async () => {
    const rest = await status();
    const client = await mcpClient(app);
    const r: any = await client.callTool({ name: 'get_data_status', arguments: {} });
    await client.close();
    expect(r.isError).toBeFalsy();
    const strip = ({ updated_at: _u, data_state: _d, ...rest }: StatusBody) => rest;
    expect(strip(Status.parse(r.structuredContent))).toEqual(strip(rest));
    expect(r.content[0].text).toMatch(/gold-api\.com (degraded|down)/);
    expect(r.content[0].text).toMatch(/largest 200 bp, 1 cross-check failure/);
  });

  it('health: 200 with the store and version, never stored', async () => {
    const r = await app.get('/api/health');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'ok', store: 'embedded', version: pkg.version });
  });

  it('metrics: refused without the Bearer token, the named families with it, counters that grow', async () => {
    expect((await app.get('/metrics')).status).toBe(401);
    expect((await app.get('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const read = async () => {
      const r = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return r.text();
    };
    const value = (text: string, line: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${line} `))
          ?.slice(line.length + 1) ?? 0,
      );
    const first = await read();
    for (const family of [
      'goldapi_http_requests_total',
      'goldapi_http_request_duration_seconds',
      'goldapi_upstream_attempts_total',
      'goldapi_upstream_failures_total',
      'goldapi_open_streams',
      'goldapi_series_cache_bytes',
      'goldapi_record_writes_total',
      'goldapi_process_cpu_seconds_total',
    ]) {
      expect(first, family).toContain(`# TYPE ${family} `);
    }
    // The history caches' budget, as configured (SERIES_CACHE_MB, default 128), and what they hold within it.
    const most = Math.floor((128 * 2 ** 20) / GC_ROOM);
    expect(value(first, 'goldapi_series_cache_bytes{kind="budget"}')).toBe(most);
    expect(value(first, 'goldapi_series_cache_bytes{kind="held"}')).toBeLessThanOrEqual(most);
    const spotLine = 'goldapi_http_requests_total{route="/api/v1/spot",status="200"}';
    const failures = 'goldapi_upstream_failures_total{upstream="gold-api.com",kind="network"}';
    expect(value(first, failures)).toBeGreaterThanOrEqual(3);
    await sleep(PAST_TTL);
    await spot();
    const second = await read();
    expect(value(second, spotLine)).toBeGreaterThan(value(first, spotLine));
    expect(value(second, failures)).toBeGreaterThan(value(first, failures));
  });
});

describe('status: two instances on one KV', () => {
  let redis: RedisServer;
  let bridge: UpstashBridge;
  let f: FakeUpstream;
  let apps: App[] = [];
  beforeAll(async () => {
    redis = await RedisServer.start();
    bridge = await UpstashBridge.start(redis.url);
    f = await FakeUpstream.start();
    const env = { ...f.env(), ...bridge.env(), KV_TIMEOUT_MS: '1500', CACHE_TTL_S: '1', ...marketClockAt(APRIL_16) };
    apps = await Promise.all([App.start({ env }), App.start({ env })]);
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await f?.close();
    await bridge?.close();
    await redis?.stop();
  });

  it("each instance's attempts are counted once, and either instance shows them all", async () => {
    for (const a of [apps[0], apps[1], apps[0], apps[1]]) {
      await a.get('/api/v1/spot').then((r) => r.text());
      await sleep(PAST_TTL);
    }
    const goldApi = GOLD_API_ROUTES.reduce((n, r) => n + f.calls[r], 0);
    expect(goldApi).toBeGreaterThanOrEqual(8);
    for (const a of apps) {
      await expect
        .poll(async () => Status.parse((await a.json('/api/v1/status')).body).upstreams.find((u) => u.id === 'gold-api')!.availability.d7, {
          timeout: 10_000,
        })
        .toEqual({ successes: goldApi, attempts: goldApi, ratio: 1 });
    }
    const s = Status.parse((await apps[1].json('/api/v1/status')).body);
    expect(s.upstreams.find((u) => u.id === 'swissquote')!.availability.d7.attempts).toBe(f.calls.quotes);
    expect(s.store).toMatchObject({ kind: 'kv', answers: true });
  });

  it('/metrics without METRICS_TOKEN set: 404, even with a token', async () => {
    expect((await apps[0].get('/metrics')).status).toBe(404);
    expect((await apps[0].get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('health: ok while KV answers, 200 degraded with store "down" once it is unreachable; status says the store does not answer', async () => {
    const health = () => apps[0].get('/api/health');
    expect(await (await health()).json()).toEqual({ status: 'ok', store: 'kv', version: pkg.version });
    await bridge.stop();
    try {
      const r = await health();
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(await r.json()).toEqual({ status: 'degraded', store: 'down', version: pkg.version });
      // This instance read the record before (above): it shows that reading, stale, and says the store does not answer.
      const s = await apps[0].json('/api/v1/status');
      expect(s.status).toBe(200);
      expect(s.body.store).toMatchObject({ kind: 'kv', answers: false });
      expect(s.body.data_state.status).toBe('stale');
    } finally {
      await bridge.restart();
    }
    await expect.poll(async () => ((await (await health()).json()) as { status: string }).status, { timeout: 10_000 }).toBe('ok');
  });
});
