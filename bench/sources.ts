// The sources section: what the second live source costs, in upstream calls and in throughput.
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { CONNECTIONS, DURATION_S, Figures, load, row } from './measure';

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

export async function twoSourcesSection(): Promise<void> {
  await upstreamCallsPerSource();
  await secondSourceCost();
}
