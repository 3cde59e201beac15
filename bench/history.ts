// The history section: `history?series=spot` misses with ten years of four metals imported, against futures
// history misses on the same instance (decisions §23, target ≥ 0.8 ×), in alternating rounds: on the embedded
// store with the response cache on (as `npm start` runs) and off, on an earlier build when
// BENCH_HISTORY_BASELINE_DIR names one, and on KV when redis-server is installed (where the spot series used to be
// read by a script of one HGET per bar on every miss). Each row also gives the server's CPU time per answer, which
// other load on a shared machine does not move the way it moves req/s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importDaily } from '../lib/prices/bars-import';
import type { Store } from '../lib/store';
import { openEmbeddedStore } from '../lib/store/embedded';
import { openKvStore } from '../lib/store/kv';
import { App } from '../tests/support/app';
import { TEN_YEAR_SYMBOLS, TEN_YEARS_AT, tenYearsFile, tenYearsRows } from '../tests/support/bars';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt } from '../tests/support/market';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';
import { longChartHandler, realChartHandler } from '../tests/support/yahoo';
import { misses, type MissRun } from './measure';

/** Seconds per run and rounds: short, the machine is shared. */
const SEGMENT_S = Number(process.env.BENCH_SEGMENT_S || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const METAL = { xau: 'gold', xag: 'silver', xpt: 'platinum', xpd: 'palladium' } as const;

const mean = (runs: MissRun[], k: 'rps' | 'cpu') => runs.reduce((s, f) => s + f[k], 0) / runs.length;

async function importAll(store: Store) {
  for (const s of TEN_YEAR_SYMBOLS) await importDaily(METAL[s], tenYearsFile(s), { store, nowMs: TEN_YEARS_AT });
}

/** Alternating rounds of futures and spot misses on one app; prints the table and the ratios. */
async function compare(label: string, app: App) {
  const paths = {
    futures: '/api/v1/history?x=1',
    spot: '/api/v1/history?series=spot&symbol=xau',
    date: `/api/v1/history?series=spot&symbol=xag&date=${tenYearsRows('xag')[1000].d}`,
  };
  const name = {
    futures: 'futures (5 years of GC=F)',
    spot: 'spot, `symbol=xau` (ten years)',
    date: 'spot, `symbol=xag&date=…` (one point)',
  };
  for (const p of Object.values(paths)) {
    const r = await app.json(p);
    if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  // Warm-up: each path's JIT, and the held series of every metal.
  for (const s of TEN_YEAR_SYMBOLS) await (await app.get(`/api/v1/history?series=spot&symbol=${s}`)).arrayBuffer();
  for (const p of Object.values(paths)) await misses(app, p);
  const runs: Record<keyof typeof paths, MissRun[]> = { futures: [], spot: [], date: [] };
  for (let i = 0; i < ROUNDS; i++) for (const k of Object.keys(paths) as (keyof typeof paths)[]) runs[k].push(await misses(app, paths[k]));
  console.log(`\n| ${label}: every request a miss | KiB per answer | req/s | p50 ms | p99 ms | server CPU ms per answer | errors |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const k of Object.keys(paths) as (keyof typeof paths)[]) {
    runs[k].forEach((f, i) =>
      console.log(
        `| ${name[k]}, round ${i + 1} | ${(f.bytes / 1024).toFixed(0)} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpu.toFixed(2)} | ${f.errors} |`,
      ),
    );
  }
  const rps = mean(runs.spot, 'rps') / mean(runs.futures, 'rps');
  const cpu = mean(runs.futures, 'cpu') / mean(runs.spot, 'cpu');
  console.log(
    `\n${label}: spot / futures misses, req/s ${rps.toFixed(3)}, by server CPU per answer ${cpu.toFixed(3)} ` +
      `(target ≥ 0.8: ${rps >= 0.8 ? 'met' : 'NOT met'} by req/s, ${cpu >= 0.8 ? 'met' : 'NOT met'} by CPU)`,
  );
  console.log(
    `${label}: date= / futures misses, req/s ${(mean(runs.date, 'rps') / mean(runs.futures, 'rps')).toFixed(3)}, ` +
      `by CPU ${(mean(runs.futures, 'cpu') / mean(runs.date, 'cpu')).toFixed(3)}`,
  );
}

/**
 * History in other currencies (decisions §24): a year in INR and the whole futures series in EUR against default
 * `history` misses, on nineteen years of GC=F and the fake's real rates (tests/fixtures/SOURCES.md; INR from 2009, EUR
 * from 2007, so both 2010 windows hold a year of converted points). Each window's point count is printed: a window
 * that held none would time an empty answer, and is refused.
 */
async function currencies(env: Record<string, string>) {
  const fake = await FakeUpstream.start();
  fake.onChart(longChartHandler());
  const app = await App.start({ env: { ...env, ...fake.env() } });
  try {
    const paths = {
      usd: '/api/v1/history?x=1',
      inr: '/api/v1/history?currency=INR&from=2010-01-01&to=2010-12-31',
      eurYear: '/api/v1/history?currency=EUR&from=2010-01-01&to=2010-12-31',
      eurMax: '/api/v1/history?currency=EUR&range=max',
    };
    const name = {
      usd: 'default `history` (5 years of GC=F, USD)',
      inr: '`currency=INR&from=2010-01-01&to=2010-12-31`',
      eurYear: '`currency=EUR&from=2010-01-01&to=2010-12-31`',
      eurMax: '`currency=EUR&range=max` (the whole futures series)',
    };
    const counts: string[] = [];
    for (const [k, p] of Object.entries(paths)) {
      const r = await app.json(p);
      if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      if (!(r.body.count > 0)) throw new Error(`${p}: no points, so its figure would time an empty answer`);
      counts.push(`${name[k as keyof typeof paths]} ${r.body.count} points`);
    }
    console.log(`\nPoints per answer: ${counts.join('; ')}`);
    for (const p of Object.values(paths)) await misses(app, p);
    const runs = Object.fromEntries(Object.keys(paths).map((k) => [k, [] as MissRun[]])) as Record<keyof typeof paths, MissRun[]>;
    for (let i = 0; i < ROUNDS; i++) for (const k of Object.keys(paths) as (keyof typeof paths)[]) runs[k].push(await misses(app, paths[k]));
    console.log(
      '\n| History in other currencies: every request a miss | KiB per answer | req/s | p50 ms | p99 ms | server CPU ms per answer | errors |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const k of Object.keys(paths) as (keyof typeof paths)[]) {
      runs[k].forEach((f, i) =>
        console.log(
          `| ${name[k]}, round ${i + 1} | ${(f.bytes / 1024).toFixed(0)} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpu.toFixed(2)} | ${f.errors} |`,
        ),
      );
    }
    for (const [k, target] of [
      ['inr', 0.8],
      ['eurYear', 0.8],
      ['eurMax', 0.5],
    ] as const) {
      const rps = mean(runs[k], 'rps') / mean(runs.usd, 'rps');
      const cpu = mean(runs.usd, 'cpu') / mean(runs[k], 'cpu');
      console.log(
        `${name[k]} / default history misses: req/s ${rps.toFixed(3)}, by server CPU per answer ${cpu.toFixed(3)} ` +
          `(target ≥ ${target}: ${rps >= target ? 'met' : 'NOT met'} by req/s, ${cpu >= target ? 'met' : 'NOT met'} by CPU)`,
      );
    }
  } finally {
    await app.stop();
    await fake.close();
  }
}

export async function historySection(): Promise<void> {
  const fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  const env = { ...fake.env(), ...marketClockAt(TEN_YEARS_AT), CACHE_TTL_S: '3600', UPSTREAM_TIMEOUT_MS: '5000', RESPONSE_CACHE: 'on' };
  try {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bench-history-'));
    const store = openEmbeddedStore(dataDir);
    await importAll(store);
    await store.close();
    console.log(
      `\n## History: ten years of four metals imported (${TEN_YEAR_SYMBOLS.map((s) => `${s} ${tenYearsRows(s).length} bars`).join(', ')}; ` +
        'xpt and xpd reuse the gold and silver rows: size, not prices), calendar on 2026-04-16, `npm start` with its response cache',
    );
    const app = await App.start({ env, dataDir });
    try {
      await compare('embedded store', app);
    } finally {
      await app.stop();
    }
    await currencies(env);
    // The same without the response cache, whose copy of each miss's body is a cost per byte of its own.
    const bare = await App.start({ env: { ...env, RESPONSE_CACHE: 'off' }, dataDir });
    try {
      await compare('embedded store, response cache off', bare);
    } finally {
      await bare.stop();
    }
    // The same on a build from before (which reads the whole series on every spot miss; it ignores `symbol`).
    const baseline = process.env.BENCH_HISTORY_BASELINE_DIR;
    if (!baseline) console.log('\n(set BENCH_HISTORY_BASELINE_DIR to an earlier build to compare its spot history misses)');
    else {
      const before = await App.start({ env, dataDir, root: baseline });
      try {
        await compare('embedded store, baseline build', before);
      } finally {
        await before.stop();
      }
    }

    let redis: RedisServer;
    try {
      redis = await RedisServer.start();
    } catch (err) {
      console.log(`\nHistory on KV: skipped (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    const bridge = await UpstashBridge.start(redis.url);
    try {
      const kvEnv = bridge.env();
      const direct = openKvStore({ url: bridge.url, token: bridge.token, prefix: kvEnv.KV_PREFIX, timeoutMs: 30_000 });
      await importAll(direct);
      await direct.close();
      const kv = await App.start({ env: { ...env, ...kvEnv } });
      try {
        await compare('KV (redis-server behind the Upstash REST bridge)', kv);
        bridge.resetCounts();
        const f = await misses(kv, '/api/v1/history?series=spot&symbol=xau');
        console.log(
          `KV round trips during ${f.total} spot misses over ${SEGMENT_S} s: ${bridge.counts.requests} (${bridge.counts.commands} commands), ` +
            'the version at most once a second per metal',
        );
      } finally {
        await kv.stop();
      }
    } finally {
      await bridge.close();
      await redis.stop();
    }
  } finally {
    await fake.close();
  }
}
