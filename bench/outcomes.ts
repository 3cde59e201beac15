// The outcomes section: spot misses with the upstream outcomes recorded against the same build with recording
// off (OUTCOMES=off), alternating runs on one machine load (decisions §26: target ratio ≥ 0.95).
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { CONNECTIONS, Figures, load, row } from './measure';

/**
 * Every request a miss (no response cache in front, as tests start the app), every TTL at 1 s so each second
 * brings a new attempt on every upstream of spot, each recorded (or not) after its answer.
 */
export async function outcomesSection(): Promise<void> {
  const path = '/api/v1/spot?compact=1';
  const mean = (fs: Figures[]) => fs.reduce((s, f) => s + f.rps, 0) / fs.length;
  const fake = await FakeUpstream.start();
  const env = { ...fake.env(), CACHE_TTL_S: '1', ...marketClockAt(OPEN_DAY) };
  const [off, on] = await Promise.all([App.start({ env: { ...env, OUTCOMES: 'off' } }), App.start({ env })]);
  try {
    for (const app of [off, on]) {
      await (await app.get(path)).arrayBuffer();
      await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 2 });
    }
    const rounds: Record<'off' | 'on', Figures[]> = { off: [], on: [] };
    for (let i = 0; i < 2; i++) {
      rounds.off.push(await load(off.url + path));
      rounds.on.push(await load(on.url + path));
    }
    const recorded = (await on.json('/api/v1/status')).body.upstreams.find((u: { id: string }) => u.id === 'gold-api').availability.d7.attempts;
    console.log('\n| spot misses GET /api/v1/spot?compact=1, TTLs 1 s | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    rounds.off.forEach((f, i) => console.log(row(`outcomes not recorded (OUTCOMES=off), round ${i + 1}`, f)));
    rounds.on.forEach((f, i) => console.log(row(`outcomes recorded, round ${i + 1}`, f)));
    const ratio = mean(rounds.on) / mean(rounds.off);
    console.log(`\nrecorded / not recorded throughput (mean of rounds): ${ratio.toFixed(3)} (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`);
    console.log(`gold-api.com attempts recorded meanwhile: ${recorded}`);
  } finally {
    await Promise.all([off.stop(), on.stop()]);
    await fake.close();
  }
}
