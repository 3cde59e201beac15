// The value section: `/api/v1/value` misses against spot misses on the same instance (decisions §31: a value is
// arithmetic on spot's own reading, so it should cost about what a spot answer costs), in alternating rounds, as
// `npm start` runs (response cache on, every request a miss). Each row also gives the server's CPU time per answer,
// which other load on a shared machine does not move the way it moves req/s.
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { CONNECTIONS, median, misses, type MissRun } from './measure';

/** Seconds per run and rounds: short, the machine is shared. */
const SEGMENT_S = Number(process.env.BENCH_SEGMENT_S || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);

export async function valueSection() {
  const fake = await FakeUpstream.start();
  // The price stays fresh through the rows: every figure is a served answer, not an outage's.
  const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '3600', RESPONSE_CACHE: 'on' } });
  const paths = {
    spot: '/api/v1/spot?compact=1',
    spotEur: '/api/v1/spot?compact=1&currency=EUR&unit=gram',
    chain: '/api/v1/value?weight=12&karat=14&currency=EUR',
    coin: '/api/v1/value?item=krugerrand&currency=ZAR&quote=76000',
    luong: '/api/v1/value?weight=1&unit=luong&currency=VND&metal=gold&fineness=999.9',
  };
  const name: Record<keyof typeof paths, string> = {
    spot: '`spot?compact=1` (USD per oz)',
    spotEur: '`spot?compact=1&currency=EUR&unit=gram`',
    chain: '`value?weight=12&karat=14&currency=EUR`',
    coin: '`value?item=krugerrand&currency=ZAR&quote=76000`',
    luong: '`value?weight=1&unit=luong&currency=VND&fineness=999.9`',
  };
  try {
    for (const p of Object.values(paths)) {
      const r = await app.json(p);
      if (r.status !== 200 || r.body.data_state.status !== 'fresh') throw new Error(`${p}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    // Warm-up: each path's JIT.
    for (const p of Object.values(paths)) await misses(app, p);
    const keys = Object.keys(paths) as (keyof typeof paths)[];
    const runs = Object.fromEntries(keys.map((k) => [k, [] as MissRun[]])) as Record<keyof typeof paths, MissRun[]>;
    for (let i = 0; i < ROUNDS; i++) for (const k of i % 2 ? [...keys].reverse() : keys) runs[k].push(await misses(app, paths[k]));
    console.log(
      `\n## Metal value misses against spot misses (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SEGMENT_S} s, response cache on, medians of the rounds)\n`,
    );
    console.log('| every request a miss | bytes per answer | req/s | p50 ms | p99 ms | server CPU ms per answer | errors |');
    console.log('|---|---|---|---|---|---|---|');
    const med = (k: keyof typeof paths, f: (r: MissRun) => number) => median(runs[k].map(f));
    for (const k of keys) {
      console.log(
        `| ${name[k]} | ${med(k, (r) => r.bytes).toFixed(0)} | ${med(k, (r) => r.rps).toFixed(0)} | ${med(k, (r) => r.p50).toFixed(1)} | ` +
          `${med(k, (r) => r.p99).toFixed(1)} | ${med(k, (r) => r.cpu).toFixed(3)} | ${runs[k].reduce((n, r) => n + r.errors, 0)} |`,
      );
    }
    // Per round, each value row against the compact spot row measured beside it.
    const ratio = (k: keyof typeof paths, f: (r: MissRun) => number, inverse = false) =>
      median(runs[k].map((r, i) => (inverse ? f(runs.spot[i]) / f(r) : f(r) / f(runs.spot[i]))));
    console.log(
      '\n' +
        (['chain', 'coin', 'luong'] as const)
          .map(
            (k) =>
              `${k} / spot misses: req/s ${ratio(k, (r) => r.rps).toFixed(2)}, by server CPU per answer ${ratio(k, (r) => r.cpu, true).toFixed(2)}`,
          )
          .join('\n'),
    );
    console.log(`gold upstream calls during the rows: ${fake.calls.gold}`);
  } finally {
    await app.stop();
    await fake.close();
  }
}
