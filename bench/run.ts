// `npm run bench`: throughput and latency of the built app on loopback, each figure beside a
// reference measured in the same run. Not part of `npm test`: figures depend on the machine.
// Record results in BENCHMARKS.md with the machine they came from.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { launchBrowser } from '../tests/support/browser';
import { App, freePort, ROOT } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { realChartHandler } from '../tests/support/yahoo';
import { lighthouseSection } from './lighthouse';
import { openEmbeddedStore } from '../lib/store/embedded';
import { rpc } from '../tests/support/mcp';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);

interface Figures {
  /** Requests completed during the run. */
  total: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string> = {}, post?: string): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...(post ? { method: 'POST', body: post } : {}) });
  return { total: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

function row(name: string, f: Figures): string {
  return `| ${name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.errors} |`;
}

/** A bare node:http server answering every request with the same bytes: the ceiling for this machine. */
async function ceiling(body: Buffer, headers: Record<string, string>): Promise<{ url: string; close: () => void }> {
  const srv = http.createServer((_req, res) => {
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/`, close: () => srv.close() };
}

async function stampede(): Promise<number> {
  const fake = await FakeUpstream.start();
  fake.set('gold', { mode: 'ok', delayMs: 200 });
  const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '60' } });
  try {
    await Promise.all(Array.from({ length: 500 }, () => app.get('/api/v1/spot?compact=1').then((r) => r.arrayBuffer())));
    return fake.calls.gold;
  } finally {
    await app.stop();
    await fake.close();
  }
}

interface Weight {
  html: [number, number, number];
  js: [number, number, number];
  scripts: number;
}

/** Raw, gzip -9 and brotli bytes of a page's HTML and of every script it references. */
async function weigh(base: string, path: string): Promise<Weight> {
  const sizes = (b: Buffer): [number, number, number] => [b.length, gzipSync(b, { level: 9 }).length, brotliCompressSync(b).length];
  const html = Buffer.from(await (await fetch(base + path)).arrayBuffer());
  const srcs = [...html.toString().matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]).filter((s) => !/nomodule/.test(s));
  const js: [number, number, number] = [0, 0, 0];
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    sizes(body).forEach((n, i) => (js[i] += n));
  }
  return { html: sizes(html), js, scripts: srcs.length };
}

async function widgets(app: App) {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const pages: [string, string][] = [
    ['price widget', '/widgets/price'],
    ['converter widget', '/widgets/converter'],
    ['chart widget', '/widgets/chart'],
    ['lightest App Router page (/docs/changelog)', '/docs/changelog'],
  ];
  console.log('\n| page | scripts | JS raw / gzip / br KB | HTML raw / gzip / br KB |');
  console.log('|---|---|---|---|');
  const weights: Record<string, Weight> = {};
  for (const [name, path] of pages) {
    const res = await fetch(app.url + path);
    await res.arrayBuffer();
    if (res.status !== 200) continue;
    const w = (weights[name] = await weigh(app.url, path));
    console.log(`| ${name} | ${w.scripts} | ${w.js.map(kb).join(' / ')} | ${w.html.map(kb).join(' / ')} |`);
  }
  const floor = weights['lightest App Router page (/docs/changelog)'];
  for (const name of Object.keys(weights)) {
    if (weights[name] !== floor && floor)
      console.log(`${name}: gzip JS = ${((weights[name].js[1] / floor.js[1]) * 100).toFixed(1)}% of the App Router page's`);
  }
  const browser = await launchBrowser();
  try {
    console.log('\n| widget | first visible price, median of 5 (ms) |');
    console.log('|---|---|');
    for (const [name, path, selector] of [
      ['price', '/widgets/price', '[data-f="price"]'],
      ['converter', '/widgets/converter', '[data-f="result"]'],
      ['chart', '/widgets/chart', '[data-f="price"]'],
    ]) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const page = await browser.newPage();
        const t0 = Date.now();
        const res = await page.goto(app.url + path, { waitUntil: 'commit' });
        if (res?.status() !== 200) break;
        await page.waitForSelector(`${selector}:not(:empty)`);
        times.push(Date.now() - t0);
        await page.close();
      }
      if (times.length) console.log(`| ${name} | ${times.sort((a, b) => a - b)[2]} |`);
    }
  } finally {
    await browser.close();
  }
}

/**
 * Distributed mode: the same warm spot load on the embedded store and on KV (a local redis-server
 * behind the Upstash REST bridge, so every KV call is a real HTTP round trip), alternated so that
 * noise from a shared machine falls on both, and the KV round trips each request costs, counted at
 * the bridge.
 */
async function kvSection() {
  let redis: RedisServer;
  try {
    redis = await RedisServer.start();
  } catch (err) {
    console.log(`\nKV backend: skipped (${err instanceof Error ? err.message : String(err)})`);
    return;
  }
  const bridge = await UpstashBridge.start(redis.url);
  const fake = await FakeUpstream.start();
  const path = '/api/v1/spot?compact=1';
  const apps: App[] = [];
  try {
    const embedded = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '3600' } });
    apps.push(embedded);
    const kv = await App.start({ env: { ...fake.env(), ...bridge.env(), CACHE_TTL_S: '3600', MCP_RATE_WINDOW_S: '60' } });
    apps.push(kv);
    await (await embedded.get(path)).arrayBuffer();
    bridge.resetCounts();
    await (await kv.get(path)).arrayBuffer();
    const cold = { ...bridge.counts };

    bridge.resetCounts();
    const runs: { embedded: Figures[]; kv: Figures[] } = { embedded: [], kv: [] };
    for (let round = 0; round < 2; round++) {
      runs.embedded.push(await load(embedded.url + path));
      runs.kv.push(await load(kv.url + path));
    }
    const warmTrips = bridge.counts.requests;
    const kvTotal = runs.kv.reduce((n, f) => n + f.total, 0);

    bridge.resetCounts();
    const MCP_CALLS = 50;
    for (let i = 0; i < MCP_CALLS; i++) {
      await rpc(kv, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_gold_price', arguments: {} } });
    }
    const mcpTrips = bridge.counts.requests;
    await kv.stop();
    await embedded.stop();

    // The same load with every cache TTL at 1 s: each feed goes back to KV and the upstream every second.
    const churn = await App.start({ env: { ...fake.env(), ...bridge.env(), CACHE_TTL_S: '1' } });
    apps.push(churn);
    await (await churn.get(path)).arrayBuffer();
    const goldBefore = fake.calls.gold;
    bridge.resetCounts();
    const spot1s = await load(churn.url + path);
    const churnTrips = bridge.counts.requests;
    const churnCommands = bridge.counts.commands;
    const goldRefreshes = fake.calls.gold - goldBefore;

    const mean = (fs: Figures[]) => fs.reduce((n, f) => n + f.rps, 0) / fs.length;
    console.log('\n| store, GET /api/v1/spot?compact=1 | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    runs.embedded.forEach((f, i) => console.log(row(`embedded (SQLite), warm, round ${i + 1}`, f)));
    runs.kv.forEach((f, i) => console.log(row(`KV (Upstash REST → redis-server), warm, round ${i + 1}`, f)));
    console.log(row('KV, every TTL 1 s (refreshing all the time)', spot1s));
    console.log(`\nKV / embedded warm spot throughput (mean of rounds): ${(mean(runs.kv) / mean(runs.embedded)).toFixed(3)}`);
    console.log(
      `KV round trips: first spot request on a cold instance ${cold.requests} (${cold.commands} commands, ${JSON.stringify(cold.byPath)}); ` +
        `warm spot ${warmTrips} over ${kvTotal} requests = ${(warmTrips / Math.max(1, kvTotal)).toFixed(4)} per request; ` +
        `MCP tools/call (warm) ${mcpTrips} over ${MCP_CALLS} = ${(mcpTrips / MCP_CALLS).toFixed(2)} per request (the shared rate-limit counter)`,
    );
    console.log(
      `KV round trips with 1 s TTLs: ${churnTrips} (${churnCommands} commands) over ${spot1s.total} requests = ${(churnTrips / Math.max(1, spot1s.total)).toFixed(4)} per request; ` +
        `${goldRefreshes} gold refreshes, ${(churnTrips / Math.max(1, goldRefreshes)).toFixed(1)} round trips per refresh of the four feeds`,
    );
  } finally {
    for (const a of apps) await a.stop();
    await fake.close();
    await bridge.close();
    await redis.stop();
  }
}

/** 14 days of 2-minute points for both symbols, written straight into the store file. */
async function seedSeries(dataDir: string): Promise<number> {
  const { fixture } = await import('../tests/support/fake-upstream');
  const price = { xau: fixture('goldapi-price-XAU.json').price as number, xag: fixture('goldapi-price-XAG.json').price as number };
  const store = openEmbeddedStore(dataDir);
  const now = Math.floor(Date.now() / 1000);
  let n = 0;
  for (const sym of ['xau', 'xag'] as const) {
    for (let t = now - 14 * 86400; t <= now; t += 120, n++) await store.addPoint(`intraday:${sym}`, { t, p: price[sym] });
  }
  await store.close();
  return n;
}

/** Upstream requests per source while spot is under sustained load: at most one per TTL per source and
 *  metal, also while one source fails. TTLs are cut to 2 s so several periods fit in a short run. */
async function upstreamCallsPerSource(): Promise<void> {
  const ttlS = 2;
  const runS = Math.min(DURATION_S, 10);
  console.log(
    `\n| spot under load, TTL ${ttlS} s, ${runS} s | gold-api.com calls | quotes feed calls | per source per minute | bound (2 metals, one per TTL) |`,
  );
  console.log('|---|---|---|---|---|');
  const cases: [string, (f: FakeUpstream) => void][] = [
    ['both sources up', () => {}],
    ['quotes feed answering HTTP 500', (f) => f.set('quotes', { mode: 'status', status: 500 })],
  ];
  for (const [label, setup] of cases) {
    const fake = await FakeUpstream.start();
    setup(fake);
    const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: String(ttlS) } });
    try {
      fake.resetCalls();
      const t0 = Date.now();
      await autocannon({ url: `${app.url}/api/v1/spot?compact=1`, connections: CONNECTIONS, duration: runS });
      const minutes = (Date.now() - t0) / 60_000;
      const goldApi = fake.calls.gold + fake.calls.silver;
      const quotes = fake.calls.quotes;
      const bound = 2 * (Math.floor((minutes * 60) / ttlS) + 1);
      const perMin = `${(goldApi / minutes).toFixed(0)} / ${(quotes / minutes).toFixed(0)}`;
      console.log(`| ${label} | ${goldApi} | ${quotes} | ${perMin} | ${bound} per run (${((2 * 60) / ttlS).toFixed(0)}/min) |`);
    } finally {
      await app.stop();
      await fake.close();
    }
  }
}

/** Warm spot throughput of this build against a build without the second source (BENCH_BASELINE_DIR),
 *  alternating runs so both see the same machine load: the second source must cost nothing warm. */
async function secondSourceCost(): Promise<void> {
  const baseline = process.env.BENCH_BASELINE_DIR;
  if (!baseline) {
    console.log('\n(set BENCH_BASELINE_DIR to a build without the second source to compare warm spot throughput)');
    return;
  }
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '3600' };
  const [before, after] = await Promise.all([App.start({ env, root: baseline }), App.start({ env })]);
  const path = '/api/v1/spot?compact=1';
  try {
    for (const app of [before, after]) {
      await (await app.get(path)).arrayBuffer();
      await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 2 });
    }
    fake.resetCalls();
    const rounds: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
    for (let i = 0; i < 2; i++) {
      rounds.before.push(await load(before.url + path));
      rounds.after.push(await load(after.url + path));
    }
    console.log('\n| warm GET /api/v1/spot?compact=1 | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    rounds.before.forEach((f, i) => console.log(row(`one source (baseline build), round ${i + 1}`, f)));
    rounds.after.forEach((f, i) => console.log(row(`two sources (this build), round ${i + 1}`, f)));
    const mean = (fs: Figures[]) => fs.reduce((s, f) => s + f.rps, 0) / fs.length;
    console.log(`\ntwo sources / one source warm throughput (mean of rounds): ${(mean(rounds.after) / mean(rounds.before)).toFixed(3)}`);
    console.log(`upstream calls during the warm runs: gold ${fake.calls.gold}, silver ${fake.calls.silver}, quotes feed ${fake.calls.quotes}`);
  } finally {
    await Promise.all([before.stop(), after.stop()]);
    await fake.close();
  }
}

/**
 * Daily spot bars: warm spot throughput of this build against a build without them (BENCH_BARS_BASELINE_DIR),
 * alternating runs on one machine load, with every TTL at 1 s so each run folds a new observation every
 * second (target ratio ≥ 0.95); and the KV round trips per refresh of the feeds with the bars on.
 */
async function barsSection(): Promise<void> {
  const path = '/api/v1/spot?compact=1';
  const mean = (fs: Figures[]) => fs.reduce((s, f) => s + f.rps, 0) / fs.length;
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY) };
  try {
    const baseline = process.env.BENCH_BARS_BASELINE_DIR;
    if (!baseline) console.log('\n(set BENCH_BARS_BASELINE_DIR to a build without the daily bars to compare warm spot throughput)');
    else {
      const [before, after] = await Promise.all([App.start({ env, root: baseline }), App.start({ env })]);
      try {
        for (const app of [before, after]) {
          await (await app.get(path)).arrayBuffer();
          await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 2 });
        }
        const rounds: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
        for (let i = 0; i < 2; i++) {
          rounds.before.push(await load(before.url + path));
          rounds.after.push(await load(after.url + path));
        }
        const bars = (await after.json('/api/v1/history?series=spot')).body.points;
        console.log('\n| warm GET /api/v1/spot?compact=1, TTLs 1 s | req/s | p50 ms | p99 ms | errors |');
        console.log('|---|---|---|---|---|');
        rounds.before.forEach((f, i) => console.log(row(`without daily bars (baseline build), round ${i + 1}`, f)));
        rounds.after.forEach((f, i) => console.log(row(`with daily bars (this build), round ${i + 1}`, f)));
        const ratio = mean(rounds.after) / mean(rounds.before);
        console.log(
          `\nwith bars / without bars warm throughput (mean of rounds): ${ratio.toFixed(3)} (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`,
        );
        console.log(`bars recorded meanwhile: ${JSON.stringify(bars.map((b: { d: string; origin: string }) => `${b.d} ${b.origin}`))}`);
      } finally {
        await Promise.all([before.stop(), after.stop()]);
      }
    }

    let redis: RedisServer;
    try {
      redis = await RedisServer.start();
    } catch (err) {
      console.log(`\nKV round trips with daily bars: skipped (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    const bridge = await UpstashBridge.start(redis.url);
    const kv = await App.start({ env: { ...env, ...bridge.env() } });
    try {
      await (await kv.get(path)).arrayBuffer();
      await autocannon({ url: kv.url + path, connections: CONNECTIONS, duration: 2 });
      const goldBefore = fake.calls.gold;
      bridge.resetCounts();
      const f = await load(kv.url + path);
      const trips = bridge.counts.requests;
      const refreshes = fake.calls.gold - goldBefore;
      console.log(row('\nKV, daily bars on, every TTL 1 s', f));
      console.log(
        `KV round trips with daily bars on: ${trips} (${bridge.counts.commands} commands) over ${f.total} requests = ` +
          `${(trips / Math.max(1, f.total)).toFixed(4)} per request; ${refreshes} gold refreshes, ` +
          `${(trips / Math.max(1, refreshes)).toFixed(1)} round trips per refresh (compare the KV section's figure without bars in its build)`,
      );
    } finally {
      await kv.stop();
      await bridge.close();
      await redis.stop();
    }
  } finally {
    await fake.close();
  }
}

/** Seconds per segment of the cache section: short, the machine is shared. */
const SEGMENT_S = Number(process.env.BENCH_SEGMENT_S || 2);
/** Rounds of the cache section's rows. */
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);

async function loadFor(url: string, opts: { headers?: Record<string, string>; fresh?: boolean } = {}): Promise<Figures> {
  let n = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SEGMENT_S,
    headers: opts.headers ?? {},
    // A throwaway parameter per request: every one a miss.
    ...(opts.fresh ? { requests: [{ setupRequest: (req: any) => ({ ...req, path: `${req.path}&miss=${++n}` }) }] } : {}),
  });
  return { total: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** 2,000 concurrent requests on a cold instance (boot-time fetch on), the gold upstream 300 ms away. */
async function coldStampede(n = 2000) {
  const fake = await FakeUpstream.start();
  fake.set('gold', { mode: 'ok', delayMs: 300 });
  const app = await App.start({ env: { ...fake.env(), RESPONSE_CACHE: 'on', WARM_FEEDS: 'on', UPSTREAM_TIMEOUT_MS: '2000', CACHE_TTL_S: '3600' } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    const t0 = performance.now();
    const statuses = await Promise.all(
      Array.from(
        { length: n },
        (_, i) =>
          new Promise<number>((resolve) => {
            http
              .get(`${app.url}/api/v1/spot?compact=1&n=${i}`, { agent }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              })
              .on('error', () => resolve(0));
          }),
      ),
    );
    const ms = performance.now() - t0;
    const by = statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {});
    return { n, ms, by, goldCalls: fake.calls.gold };
  } finally {
    agent.destroy();
    await app.stop();
    await fake.close();
  }
}

async function twoSourcesSection(): Promise<void> {
  await upstreamCallsPerSource();
  await secondSourceCost();
}

/** A plain `next start` of this build (no server.mjs: no cache, no compression layer), the framework floor. */
async function nextStart(env: Record<string, string>): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', SAMPLER: 'off', WARM_FEEDS: 'off', ...env },
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(`${url}/api/bench-floor`)).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('next start did not come up');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load1 = () => os.loadavg()[0];

/** CPU time a process has used so far (user + system), in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The response cache of `npm start`, each figure beside its reference in this one run, in alternating
 * rounds so that what else the machine does falls on every row: misses (a throwaway parameter per
 * request) with the cache on and off, the app's constant route on and off, a plain `next start` of
 * the same constant route (the framework floor, outside server.mjs), cache hits per encoding against a
 * bare node:http server sending the same bytes, and a cold stampede.
 */
async function cacheSection() {
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '3600', BENCH_FLOOR: '1' };
  const [on, off] = await Promise.all([App.start({ env: { ...env, RESPONSE_CACHE: 'on' } }), App.start({ env: { ...env, RESPONSE_CACHE: 'off' } })]);
  const plain = await nextStart(env);
  const path = '/api/v1/spot';
  try {
    const bytes = Buffer.from(await (await fetch(on.url + path, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    const bare = await ceiling(bytes, { 'content-type': 'application/json; charset=utf-8' });
    // Warm-up: each server's JIT, the cache entry and every variant.
    for (const enc of ['identity', 'gzip', 'br'])
      await autocannon({ url: on.url + path, connections: CONNECTIONS, duration: 1, headers: { 'accept-encoding': enc } });
    for (const base of [on.url, off.url]) await loadFor(`${base}${path}?compact=1&w=1`, { fresh: true });
    for (const base of [on.url, off.url, plain.url]) await loadFor(`${base}/api/bench-floor?w=1`, { fresh: true });

    const rows = {
      bare: () => loadFor(bare.url),
      hit: () => loadFor(on.url + path),
      hitGzip: () => loadFor(on.url + path, { headers: { 'accept-encoding': 'gzip' } }),
      hitBr: () => loadFor(on.url + path, { headers: { 'accept-encoding': 'br' } }),
      missOn: () => loadFor(`${on.url}${path}?x=1`, { fresh: true }),
      missOff: () => loadFor(`${off.url}${path}?x=1`, { fresh: true }),
      compactOn: () => loadFor(`${on.url}${path}?compact=1`, { fresh: true }),
      compactOff: () => loadFor(`${off.url}${path}?compact=1`, { fresh: true }),
      floorOn: () => loadFor(`${on.url}/api/bench-floor?x=1`, { fresh: true }),
      floorOff: () => loadFor(`${off.url}/api/bench-floor?x=1`, { fresh: true }),
      next: () => loadFor(`${plain.url}/api/bench-floor?x=1`, { fresh: true }),
    };
    type Row = keyof typeof rows;
    // The server each row loads: its CPU time per request is what a request costs it, whatever else
    // the machine does (the bare server runs in this process and is left out).
    const pidOf: Partial<Record<Row, number>> = {
      hit: on.pid,
      hitGzip: on.pid,
      hitBr: on.pid,
      missOn: on.pid,
      compactOn: on.pid,
      floorOn: on.pid,
      missOff: off.pid,
      compactOff: off.pid,
      floorOff: off.pid,
      next: plain.pid,
    };
    const runs = Object.fromEntries(Object.keys(rows).map((k) => [k, [] as Figures[]])) as Record<Row, Figures[]>;
    const cpu = Object.fromEntries(Object.keys(rows).map((k) => [k, 0])) as Record<Row, number>;
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Every other round runs the rows in reverse, so no row always follows the same neighbour.
      const order = Object.entries(rows) as [Row, () => Promise<Figures>][];
      for (const [name, run] of round % 2 ? order.reverse() : order) {
        loads.push(load1());
        const pid = pidOf[name];
        const before = pid ? cpuMs(pid) : 0;
        runs[name].push(await run());
        if (pid) cpu[name] += cpuMs(pid) - before;
      }
    }
    const cpuPerRequest = (r: Row) => (cpu[r] / runs[r].reduce((n, f) => n + f.total, 0)) * 1000;
    bare.close();
    const stampede = await coldStampede();

    /** Per-round ratio of two rows (measured seconds apart in the same round), the median over rounds. */
    const ratio = (a: Row, b: Row) => median(runs[a].map((f, i) => f.rps / runs[b][i].rps));
    const p99 = (r: Row) => median(runs[r].map((f) => f.p99));
    const summary = (r: Row): Figures => ({
      total: runs[r].reduce((n, f) => n + f.total, 0),
      rps: median(runs[r].map((f) => f.rps)),
      p50: median(runs[r].map((f) => f.p50)),
      p99: p99(r),
      errors: runs[r].reduce((n, f) => n + f.errors, 0),
    });
    const x = (n: number) => `${n.toFixed(2)}×`;
    console.log(
      `\n## Response cache (${bytes.length}-byte spot answer, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SEGMENT_S} s per row, ` +
        `medians of the rounds; load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the rows)\n`,
    );
    console.log('| what | req/s | p50 ms | p99 ms | errors | ratio (median of per-round ratios) |');
    console.log('|---|---|---|---|---|---|');
    const line = (name: string, r: Row, text: string) => console.log(`${row(name, summary(r))} ${text} |`);
    line('bare node:http, same bytes', 'bare', 'reference');
    line('spot hit, identity', 'hit', `${x(ratio('hit', 'bare'))} bare (target ≥ 0.9×)`);
    line('spot hit, gzip', 'hitGzip', `${x(ratio('hitGzip', 'bare'))} bare`);
    line('spot hit, br', 'hitBr', `${x(ratio('hitBr', 'bare'))} bare`);
    line('plain `next start`, constant route (framework floor)', 'next', 'reference');
    line('app constant route, cache on', 'floorOn', `${x(ratio('floorOn', 'floorOff'))} cache off`);
    line('app constant route, cache off', 'floorOff', `${x(ratio('floorOff', 'next'))} the framework floor`);
    line(
      'spot miss, cache on',
      'missOn',
      `${x(ratio('missOn', 'missOff'))} cache off (target ≥ 0.9×), ${x(ratio('missOn', 'next'))} floor (target ≥ 0.8×)`,
    );
    line('spot miss, cache off', 'missOff', `${x(ratio('missOff', 'next'))} floor`);
    line(
      'spot?compact=1 miss, cache on',
      'compactOn',
      `${x(ratio('compactOn', 'compactOff'))} cache off (target ≥ 0.9×), ${x(ratio('compactOn', 'next'))} floor`,
    );
    line('spot?compact=1 miss, cache off', 'compactOff', `${x(ratio('compactOff', 'next'))} floor`);
    console.log(
      `\nmiss p99, cache on / off (target ≤ 1.5): spot ${(p99('missOn') / p99('missOff')).toFixed(2)}, ` +
        `compact ${(p99('compactOn') / p99('compactOff')).toFixed(2)}, constant route ${(p99('floorOn') / p99('floorOff')).toFixed(2)}`,
    );
    console.log(
      `server CPU per request, µs (all rounds; less sensitive to other load than req/s): ` +
        (Object.keys(pidOf) as Row[]).map((r) => `${r} ${cpuPerRequest(r).toFixed(0)}`).join(', '),
    );
    console.log(
      `miss CPU, cache on / off: spot ${(cpuPerRequest('missOn') / cpuPerRequest('missOff')).toFixed(2)}, ` +
        `compact ${(cpuPerRequest('compactOn') / cpuPerRequest('compactOff')).toFixed(2)}, constant route ${(cpuPerRequest('floorOn') / cpuPerRequest('floorOff')).toFixed(2)}`,
    );
    console.log('\nper round, req/s:');
    for (const r of Object.keys(rows) as Row[]) console.log(`  ${r}: ${runs[r].map((f) => f.rps.toFixed(0)).join(' / ')}`);
    console.log(`gold upstream calls during the rows: ${fake.calls.gold}`);
    console.log(
      `cold stampede: ${stampede.n} concurrent requests (upstream 300 ms, UPSTREAM_TIMEOUT_MS=2000) → ` +
        `${JSON.stringify(stampede.by)} by status in ${stampede.ms.toFixed(0)} ms, ${stampede.goldCalls} gold upstream call(s)`,
    );
  } finally {
    await Promise.all([on.stop(), off.stop(), plain.stop()]);
    await fake.close();
  }
}

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The server's RSS under a stream of unique keys (throwaway parameters on spot, compact spot and the
 * price widget, and every fourth request a brotli repeat of a recent key, so entries gain variants),
 * with the cache off and on at two RESPONSE_CACHE_MB settings, the three side by side for
 * BENCH_MEMORY_S seconds. The growth over cache off must stay within 1.5 × the bound and level off.
 */
async function memorySection() {
  const seconds = Number(process.env.BENCH_MEMORY_S || 240);
  const bounds = (process.env.BENCH_MEMORY_MB || '16,64').split(',').map(Number);
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '3600' };
  const configs = [{ name: 'off', mb: 0 }, ...bounds.map((mb) => ({ name: `${mb} MB`, mb }))];
  const apps = await Promise.all(
    configs.map((c) =>
      App.start({ env: { ...env, ...(c.mb ? { RESPONSE_CACHE: 'on', RESPONSE_CACHE_MB: String(c.mb) } : { RESPONSE_CACHE: 'off' }) } }),
    ),
  );
  try {
    const samples: number[][] = configs.map(() => []);
    const times: number[] = [];
    const loads: number[] = [];
    const t0 = Date.now();
    const sample = () => {
      times.push(Math.round((Date.now() - t0) / 1000));
      loads.push(load1());
      apps.forEach((a, i) => samples[i].push(rssMiB(a.pid!)));
    };
    sample();
    const timer = setInterval(sample, 15_000);
    const stream = (base: string) => {
      let n = 0;
      return autocannon({
        url: base,
        connections: 8,
        duration: seconds,
        requests: [
          {
            setupRequest: (req: any) => {
              const i = ++n;
              const paths = [`/api/v1/spot?t=${i}`, `/api/v1/spot?compact=1&t=${i}`, `/widgets/price?t=${i}`];
              if (i % 4 === 0) return { ...req, path: `/api/v1/spot?t=${i - 3}`, headers: { 'accept-encoding': 'br' } };
              return { ...req, path: paths[i % 4 === 3 ? 2 : (i % 4) - 1], headers: {} };
            },
          },
        ],
      });
    };
    const results = await Promise.all(apps.map((a) => stream(a.url)));
    clearInterval(timer);
    sample();
    console.log(
      `\n## Memory: server RSS (MiB) under a stream of unique keys, ${seconds} s, the three servers side by side, 8 connections each ` +
        `(load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})\n`,
    );
    console.log(`| s | ${configs.map((c) => `cache ${c.name}`).join(' | ')} | load |`);
    console.log(`|---|${configs.map(() => '---|').join('')}---|`);
    times.forEach((t, j) => console.log(`| ${t} | ${samples.map((s) => s[j].toFixed(0)).join(' | ')} | ${loads[j].toFixed(1)} |`));
    const last = (i: number, k: number) => samples[i].slice(-k);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // Growth over off: the mean of the last three samples of each against off's.
    const tail = Math.min(3, times.length);
    configs.forEach((c, i) => {
      if (!c.mb) return;
      const growth = mean(last(i, tail)) - mean(last(0, tail));
      // Levelling off: the change over the last quarter of the run.
      const quarter = Math.floor((times.length * 3) / 4);
      const drift = mean(last(i, tail)) - mean(samples[i].slice(quarter - tail, quarter));
      console.log(
        `cache ${c.name}: ${results[i].requests.total} requests; growth over off ${growth.toFixed(0)} MiB = ${(growth / c.mb).toFixed(2)} × the bound (target ≤ 1.5); ` +
          `change over the last quarter ${drift.toFixed(0)} MiB`,
      );
    });
    console.log(`cache off: ${results[0].requests.total} requests`);
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    await fake.close();
  }
}

async function main() {
  // BENCH_ONLY picks sections, comma-separated: `cache` (hits, misses and floors, about 2 min),
  // `memory` (RSS under unique keys, BENCH_MEMORY_S, 4 min by default), `sources` (the two-source
  // figures, about a minute), `bars` (daily spot bars: warm spot with and without them, KV round trips),
  // `app` (everything else), `lighthouse` (scores and page weights, bench/lighthouse.ts, LH_RUNS runs per
  // page, about 10 min). `npm run bench -- cache` is BENCH_ONLY=cache.
  const only = new Set((process.env.BENCH_ONLY || process.argv[2] || 'cache,memory,app,sources,bars,lighthouse').split(','));
  console.log(`# Benchmark: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
  console.log(
    `# ${CONNECTIONS} connections, ${DURATION_S} s per run, loopback, load average at start ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  );
  if (only.has('cache')) await cacheSection();
  if (only.has('memory')) await memorySection();
  if (only.has('app')) await appSection();
  if (only.has('sources')) await twoSourcesSection();
  if (only.has('bars')) await barsSection();
  if (only.has('lighthouse')) await lighthouseSection();
}

async function appSection() {
  const fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // A full 14-day intraday series (2-minute points, both symbols) in the embedded store, recorded
  // here from the one real recorded price per symbol: the point is the store's read cost, not the values.
  const { default: os_ } = await import('node:os');
  const { mkdtempSync } = await import('node:fs');
  const dataDir = mkdtempSync(`${os_.tmpdir()}/goldapi-bench-`);
  const seeded = await seedSeries(dataDir);
  // Warm caches must stay warm for the whole run; MCP's rate window is made short enough not to limit the load.
  const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '3600', MCP_RATE_WINDOW_S: '0.001' }, dataDir });
  try {
    const path = '/api/v1/spot?compact=1';
    const warm = await app.get(path);
    const bytes = Buffer.from(await warm.arrayBuffer());
    const bare = await ceiling(bytes, { 'content-type': 'application/json; charset=utf-8' });

    // Warm-up: let the server's JIT settle before measuring.
    await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 3 });
    const spot = await load(app.url + path);
    const spotBr = await load(app.url + '/api/v1/spot', { 'accept-encoding': 'br' });
    const ref = await load(bare.url);
    bare.close();

    console.log('| endpoint | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    console.log(row('bare node:http, same bytes (ceiling)', ref));
    console.log(row('GET /api/v1/spot?compact=1 (warm)', spot));
    console.log(row('GET /api/v1/spot full table, brotli (warm)', spotBr));
    console.log(`\nspot / ceiling throughput: ${(spot.rps / ref.rps).toFixed(3)}`);
    console.log(`upstream calls during the warm runs: gold ${fake.calls.gold}, fx ${fake.calls.fx}`);

    // Series and MCP, each beside spot in this same run.
    await (await app.get('/api/v1/history')).arrayBuffer();
    const intraday = await load(`${app.url}/api/v1/intraday?hours=48`);
    const history = await load(`${app.url}/api/v1/history`);
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_gold_price', arguments: {} } });
    const mcp = await load(`${app.url}/mcp`, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, mcpBody);
    const points48 = (await app.json('/api/v1/intraday?hours=48')).body.count;
    console.log('\n| endpoint | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    console.log(row('GET /api/v1/spot?compact=1 (warm, from above)', spot));
    console.log(row(`GET /api/v1/intraday?hours=48 (${points48} points of a ${seeded}-point 14-day store)`, intraday));
    console.log(row('GET /api/v1/history (warm cache, 5 years)', history));
    console.log(row('POST /mcp tools/call get_gold_price (warm)', mcp));
    console.log(`\nMCP tools/call / REST spot throughput: ${(mcp.rps / spot.rps).toFixed(3)}`);
    await widgets(app);
  } finally {
    await app.stop();
    await fake.close();
  }

  await kvSection();

  console.log(`\ncold-cache stampede: 500 concurrent requests → ${await stampede()} gold upstream call(s)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
