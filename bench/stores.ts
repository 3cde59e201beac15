// The stores section (decisions §34): the same work on the three stores side by side, in one run. Spot misses on the
// built app, every TTL at 1 s so each second every feed goes back to the store and its upstream (outcomes recorded,
// the daily bar folded), in alternating rounds: the embedded file, KV (Upstash's REST protocol through the test bridge
// to a redis-server) and Redis over TCP (REDIS_URL, a redis-server with a password), with the store round trips each
// request costs. Then the alerts' evaluation in process on each store: one fresh reading of gold with 100,000 alerts
// armed and none crossed, and one reading crossing 1,000 more (bench/alerts.ts). Both redis-servers are local: the
// figures are the stores' own cost, not a network's. The bridge runs in this process, beside the load generator.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from '@redis/client';
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';
import { armedAlert, crossing, timedReadings } from './alerts';
import { CONNECTIONS, DURATION_S, Figures, load, row } from './measure';

const ARMED = 100_000;
const STORE_SLOT = Symbol.for('goldapi.store');
type Store = 'embedded' | 'kv' | 'redis';
const NAME: Record<Store, string> = {
  embedded: 'embedded (SQLite)',
  kv: 'KV (Upstash REST → bridge → redis-server)',
  redis: 'Redis over TCP (REDIS_URL)',
};

export async function storesSection(): Promise<void> {
  let forKv: RedisServer;
  let forTcp: RedisServer;
  try {
    [forKv, forTcp] = await Promise.all([RedisServer.start(), RedisServer.start({ password: 'bench-password' })]);
  } catch (err) {
    console.log(`\nstores: skipped (${err instanceof Error ? err.message : String(err)})`);
    return;
  }
  const bridge = await UpstashBridge.start(forKv.url);
  const raw = await createClient({ url: forTcp.url, RESP: 2 }).connect();
  /** Commands the TCP server has run so far (INFO's total_commands_processed, its own INFO included). */
  const tcpCommands = async () => Number(/total_commands_processed:(\d+)/.exec(String(await raw.sendCommand(['INFO', 'stats'])))![1]);
  const envOf: Record<Store, () => Record<string, string>> = {
    embedded: () => ({}),
    kv: () => ({ ...bridge.env(), KV_TIMEOUT_MS: '30000' }),
    redis: () => ({ REDIS_URL: forTcp.url, KV_PREFIX: `bench-${Date.now()}:`, KV_TIMEOUT_MS: '30000' }),
  };
  try {
    await spotMisses(envOf, () => bridge.counts.commands, tcpCommands);
    await alertEvaluation(envOf);
  } finally {
    raw.destroy();
    await bridge.close();
    await Promise.all([forKv.stop(), forTcp.stop()]);
  }
}

async function spotMisses(
  envOf: Record<Store, () => Record<string, string>>,
  kvCommands: () => number,
  tcpCommands: () => Promise<number>,
): Promise<void> {
  const path = '/api/v1/spot?compact=1';
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY) };
  const stores: Store[] = ['embedded', 'kv', 'redis'];
  const apps = await Promise.all(stores.map((s) => App.start({ env: { ...env, ...envOf[s]() } })));
  try {
    for (const app of apps) {
      await (await app.get(path)).arrayBuffer();
      await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 2 });
    }
    const runs: Record<Store, Figures[]> = { embedded: [], kv: [], redis: [] };
    // Redis commands each store's runs cost (the bridge counts those it runs; the TCP server's INFO its own).
    const commands: Record<Store, number> = { embedded: 0, kv: 0, redis: 0 };
    const ROUNDS = 2;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of stores.entries()) {
        const before = s === 'kv' ? kvCommands() : s === 'redis' ? await tcpCommands() : 0;
        runs[s].push(await load(apps[i].url + path));
        // The INFO that reads the count is one command of its own.
        commands[s] += s === 'kv' ? kvCommands() - before : s === 'redis' ? (await tcpCommands()) - before - 1 : 0;
      }
    }
    const mean = (fs: Figures[]) => fs.reduce((n, f) => n + f.rps, 0) / fs.length;
    const total = (fs: Figures[]) => fs.reduce((n, f) => n + f.total, 0);
    console.log(`\n| stores: spot misses GET ${path}, every TTL 1 s | req/s | p50 ms | p99 ms | errors |`);
    console.log('|---|---|---|---|---|');
    for (const s of stores) runs[s].forEach((f, i) => console.log(row(`${NAME[s]}, round ${i + 1}`, f)));
    console.log(
      `\nthroughput against the embedded store (mean of rounds): KV ${(mean(runs.kv) / mean(runs.embedded)).toFixed(3)}, ` +
        `Redis over TCP ${(mean(runs.redis) / mean(runs.embedded)).toFixed(3)}; Redis over TCP / KV ${(mean(runs.redis) / mean(runs.kv)).toFixed(3)}`,
    );
    // With every TTL at 1 s the store works each second whatever the load, so its commands are counted per second too.
    const perS = (n: number) => (n / (ROUNDS * DURATION_S)).toFixed(0);
    console.log(
      `Redis commands per second of load: KV ${perS(commands.kv)} (each an HTTP request), Redis over TCP ${perS(commands.redis)}; ` +
        `per spot miss: KV ${(commands.kv / Math.max(1, total(runs.kv))).toFixed(3)}, Redis over TCP ${(commands.redis / Math.max(1, total(runs.redis))).toFixed(3)}`,
    );
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    await fake.close();
  }
}

async function alertEvaluation(envOf: Record<Store, () => Record<string, string>>): Promise<void> {
  const fake = await FakeUpstream.start();
  const keep = { ...process.env };
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bench-stores-')), WARM_FEEDS: 'off' });
  const slot = globalThis as Record<symbol, { close(): Promise<void> } | undefined>;
  const rows: string[] = [];
  try {
    const { getStore } = await import('../lib/store');
    const { ALERTS } = await import('../lib/alerts/model');
    const { resetEvaluation } = await import('../lib/alerts/evaluate');
    const { feeds } = await import('../lib/sources/feeds');
    await feeds.fx.read();
    const clock = { at: Date.now() };
    for (const s of ['embedded', 'kv', 'redis'] as Store[]) {
      // A process on this store: its own store, an empty index.
      await slot[STORE_SLOT]?.close();
      delete slot[STORE_SLOT];
      for (const k of ['REDIS_URL', 'KV_REST_API_URL', 'KV_REST_API_TOKEN', 'KV_PREFIX', 'KV_TIMEOUT_MS']) delete process.env[k];
      Object.assign(process.env, envOf[s]());
      resetEvaluation();
      const store = getStore();
      const now = Date.now();
      const t0 = performance.now();
      // Written 1,000 at a time (the KV and Redis stores take them concurrently); levels a thousand times above or
      // below any price: armed, never crossed.
      for (let from = 0; from < ARMED; from += 1000) {
        await Promise.all(
          Array.from({ length: 1000 }, (_, j) => {
            const i = from + j;
            const above = i % 2 === 0;
            const condition = { type: above ? 'above' : 'below', value: above ? 1e9 + i : 1e-6 * (i + 1) } as const;
            return armedAlert(`alrt_bench${i}`, condition, `https://hooks.example.com/${i % 5000}`, now).then((a) => store.putDoc(ALERTS, a.id, a));
          }),
        );
      }
      const written = performance.now() - t0;
      const { first, mean, p } = await timedReadings(clock);
      rows.push(
        `| ${NAME[s]} | ${(written / 1000).toFixed(1)} | ${first.toFixed(0)} | ${mean.toFixed(2)} | ${p(0.5).toFixed(2)} / ${p(0.99).toFixed(2)} |`,
      );
      await crossing(clock, `with the ${ARMED.toLocaleString('en')} still armed, ${NAME[s]}`);
    }
    console.log(
      `\n| stores: one fresh reading of gold, ${ARMED.toLocaleString('en')} alerts armed, none crossed | writing them, s | first reading, ms | a reading, mean ms | p50 / p99 ms |`,
    );
    console.log('|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await slot[STORE_SLOT]?.close();
    delete slot[STORE_SLOT];
    for (const k of Object.keys(process.env)) if (!(k in keep)) delete process.env[k];
    Object.assign(process.env, keep);
    await fake.close();
  }
}
