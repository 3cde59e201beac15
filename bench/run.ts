// `npm run bench`: throughput and latency of the built app on loopback, each figure beside a
// reference measured in the same run. Not part of `npm test`: figures depend on the machine.
// Record results in BENCHMARKS.md with the machine they came from.
// Each section is a file of its own in bench/; this one picks them and prints the machine.
import os from 'node:os';
import { lighthouseSection } from './lighthouse';
import { alertsSection } from './alerts';
import { appSection } from './app';
import { barsSection } from './bars';
import { cacheSection } from './cache';
import { historySection } from './history';
import { CONNECTIONS, DURATION_S } from './measure';
import { memorySection } from './memory';
import { outcomesSection } from './outcomes';
import { profileSection } from './profile';
import { seriesMemorySection } from './series-memory';
import { twoSourcesSection } from './sources';
import { storesSection } from './stores';
import { streamSection } from './stream';
import { valueSection } from './value';

async function main() {
  // BENCH_ONLY picks sections, comma-separated: `cache` (hits, misses and floors, about 2 min),
  // `memory` (RSS under unique keys, BENCH_MEMORY_S, 4 min by default), `sources` (the two-source
  // figures, about a minute), `bars` (daily spot bars: warm spot with and without them, KV round trips),
  // `history` (spot history misses, ten years of four metals, against futures history misses, about a minute),
  // `app` (everything else), `lighthouse` (scores and page weights, bench/lighthouse.ts, LH_RUNS runs per
  // page, about 10 min), `profile` (a CPU profile of spot misses, bench/profile.ts, about 15 s), `stream` (1,000 open price
  // streams: upstream calls against an idle instance, RSS per stream, change-to-event latency, bench/stream.ts, about 5 min),
  // `outcomes` (spot misses with upstream outcomes recorded against OUTCOMES=off, bench/outcomes.ts, about a minute),
  // `alerts` (one reading's evaluation with 100,000 alerts armed, then one crossing 1,000 more delivered to a local receiver, on the embedded store and on KV, and deliveries per second with one target hanging, in process, bench/alerts.ts, about a minute),
  // `stores` (spot misses with every TTL at 1 s, and the alerts' evaluation, on the embedded store, KV through the bridge and
  // Redis over TCP side by side, bench/stores.ts, about 3 min),
  // `series-memory` (RSS after every listed currency × unit × `range=max` and 192 `from=` windows, against
  // SERIES_CACHE_MB plus the idle size, answers spot-checked, bench/series-memory.ts, about 3 min),
  // `value` (metal value misses, a weight at a karat, a coin with a quote, a luong, against spot misses on the same
  // instance, bench/value.ts, about a minute).
  // `npm run bench -- cache` is BENCH_ONLY=cache.
  const only = new Set(
    (
      process.env.BENCH_ONLY ||
      process.argv[2] ||
      'cache,profile,memory,series-memory,app,sources,bars,history,value,outcomes,stream,alerts,stores,lighthouse'
    ).split(','),
  );
  console.log(`# Benchmark: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
  console.log(
    `# ${CONNECTIONS} connections, ${DURATION_S} s per run, loopback, load average at start ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  );
  if (only.has('cache')) await cacheSection();
  if (only.has('profile')) await profileSection();
  if (only.has('memory')) await memorySection();
  if (only.has('series-memory')) await seriesMemorySection();
  if (only.has('app')) await appSection();
  if (only.has('sources')) await twoSourcesSection();
  if (only.has('bars')) await barsSection();
  if (only.has('history')) await historySection();
  if (only.has('value')) await valueSection();
  if (only.has('outcomes')) await outcomesSection();
  if (only.has('stream')) await streamSection();
  if (only.has('alerts')) await alertsSection();
  if (only.has('stores')) await storesSection();
  if (only.has('lighthouse')) await lighthouseSection();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
