// The cache section: the response cache's hits and misses against plain `next start` and the bare ceiling.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';
import { App, freePort, ROOT } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { CONNECTIONS, Figures, ceiling, load1, median, row } from './measure';

/** Seconds per segment of the cache section: short, the machine is shared. */
const SEGMENT_S = Number(process.env.BENCH_SEGMENT_S || 2);

/** Rounds of the cache section's rows. */
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);

async function loadFor(url: string, opts: { headers?: Record<string, string>; fresh?: boolean; notModified?: boolean } = {}): Promise<Figures> {
  let n = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SEGMENT_S,
    headers: opts.headers ?? {},
    // A throwaway parameter per request: every one a miss.
    ...(opts.fresh ? { requests: [{ setupRequest: (req: any) => ({ ...req, path: `${req.path}&miss=${++n}` }) }] } : {}),
  });
  // A revalidation's answer is a 304: anything else counts as an error there.
  const wrong = opts.notModified ? r.requests.total - r['3xx'] : r.non2xx;
  return { total: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + wrong };
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
export async function cacheSection() {
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '3600', BENCH_FLOOR: '1' };
  const [on, off] = await Promise.all([App.start({ env: { ...env, RESPONSE_CACHE: 'on' } }), App.start({ env: { ...env, RESPONSE_CACHE: 'off' } })]);
  const plain = await nextStart(env);
  const path = '/api/v1/spot';
  try {
    const first = await fetch(on.url + path, { headers: { 'accept-encoding': 'identity' } });
    const bytes = Buffer.from(await first.arrayBuffer());
    // The validator a poller holds: revalidating with it is a 304 while the price stands (CACHE_TTL_S=3600).
    // Each app has its own (its links name its own origin).
    const holds = { 'if-none-match': first.headers.get('etag') ?? '' };
    const holdsOff = { 'if-none-match': (await fetch(off.url + path)).headers.get('etag') ?? '' };
    const bare = await ceiling(bytes, { 'content-type': 'application/json; charset=utf-8' });
    // Warm-up: each server's JIT, the cache entry and every variant.
    for (const enc of ['identity', 'gzip', 'br'])
      await autocannon({ url: on.url + path, connections: CONNECTIONS, duration: 1, headers: { 'accept-encoding': enc } });
    for (const base of [on.url, off.url]) await loadFor(`${base}${path}?compact=1&w=1`, { fresh: true });
    await loadFor(`${on.url}/gold/eur/gram?w=1`, { fresh: true });
    for (const base of [on.url, off.url, plain.url]) await loadFor(`${base}/api/bench-floor?w=1`, { fresh: true });

    const rows = {
      bare: () => loadFor(bare.url),
      hit: () => loadFor(on.url + path),
      hitGzip: () => loadFor(on.url + path, { headers: { 'accept-encoding': 'gzip' } }),
      hitBr: () => loadFor(on.url + path, { headers: { 'accept-encoding': 'br' } }),
      revalidateOn: () => loadFor(on.url + path, { headers: holds, notModified: true }),
      revalidateOff: () => loadFor(off.url + path, { headers: holdsOff, notModified: true }),
      missOn: () => loadFor(`${on.url}${path}?x=1`, { fresh: true }),
      missOff: () => loadFor(`${off.url}${path}?x=1`, { fresh: true }),
      compactOn: () => loadFor(`${on.url}${path}?compact=1`, { fresh: true }),
      compactOff: () => loadFor(`${off.url}${path}?compact=1`, { fresh: true }),
      // A price page's miss (decisions §27) beside spot's: the page is spot's answer rendered.
      pageOn: () => loadFor(`${on.url}/gold/eur/gram?x=1`, { fresh: true }),
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
      revalidateOn: on.pid,
      revalidateOff: off.pid,
      missOn: on.pid,
      compactOn: on.pid,
      pageOn: on.pid,
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
    line(
      'spot revalidation (If-None-Match → 304), cache on',
      'revalidateOn',
      `${x(ratio('revalidateOn', 'hit'))} identity hit, ${x(ratio('revalidateOn', 'bare'))} bare`,
    );
    line('spot revalidation (If-None-Match → 304), cache off', 'revalidateOff', `${x(ratio('revalidateOff', 'missOff'))} miss, cache off`);
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
    line('price page /gold/eur/gram miss, cache on', 'pageOn', `${x(ratio('pageOn', 'compactOn'))} spot?compact=1 miss, cache on`);
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
