// The KV section: the app on Upstash's REST protocol (a bridge to redis-server) beside the embedded store.
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { rpc } from '../tests/support/mcp';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';
import { Figures, load, row } from './measure';

/**
 * Distributed mode: the same warm spot load on the embedded store and on KV (a local redis-server
 * behind the Upstash REST bridge, so every KV call is a real HTTP round trip), alternated so that
 * noise from a shared machine falls on both, and the KV round trips each request costs, counted at
 * the bridge.
 */
export async function kvSection() {
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
