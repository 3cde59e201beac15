// The memory section: RSS under unique keys, with the response cache off and at its bounds.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { load1 } from './measure';

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The server's RSS under a stream of unique keys (throwaway parameters on spot, compact spot and the
 * price widget, and every fourth request a brotli repeat of a recent key, so entries gain variants),
 * with the cache off and on at two RESPONSE_CACHE_MB settings, the three side by side for
 * BENCH_MEMORY_S seconds. The growth over cache off must stay within 1.5 × the bound and level off.
 */
export async function memorySection() {
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
