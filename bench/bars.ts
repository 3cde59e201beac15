// The bars section: warm spot with and without the daily spot bars, and KV round trips per refresh.
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { RedisServer, UpstashBridge } from '../tests/support/upstash-bridge';
import { CONNECTIONS, Figures, load, row } from './measure';

/**
 * Daily spot bars: warm spot throughput of this build against a build without them (BENCH_BARS_BASELINE_DIR),
 * alternating runs on one machine load, with every TTL at 1 s so each run folds a new observation every
 * second (target ratio ≥ 0.95); and the KV round trips per refresh of the feeds with the bars on.
 */
export async function barsSection(): Promise<void> {
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
