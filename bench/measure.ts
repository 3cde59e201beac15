// What every section of `npm run bench` measures with: a load run (autocannon), its table row, the
// machine's ceiling (a bare node:http server with the same bytes) and small statistics.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';

export const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);

export interface Figures {
  /** Requests completed during the run. */
  total: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(url: string, headers: Record<string, string> = {}, post?: string): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...(post ? { method: 'POST', body: post } : {}) });
  return { total: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export function row(name: string, f: Figures): string {
  return `| ${name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.errors} |`;
}

/** A bare node:http server answering every request with the same bytes: the ceiling for this machine. */
export async function ceiling(body: Buffer, headers: Record<string, string>): Promise<{ url: string; close: () => void }> {
  const srv = http.createServer((_req, res) => {
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/`, close: () => srv.close() };
}

export async function stampede(): Promise<number> {
  const fake = await FakeUpstream.start();
  fake.set('gold', { mode: 'ok', delayMs: 200 });
  const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '60' } });
  try {
    await Promise.all(Array.from({ length: 500 }, () => app.get('/api/v1/spot?compact=1').then((r) => r.arrayBuffer())));
    return fake.calls.gold;
  } finally {
    await app.stop();
    await fake.close();
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const load1 = () => os.loadavg()[0];

/** Seconds of each run of misses (`misses`): short, the machine is shared. */
const MISS_SEGMENT_S = Number(process.env.BENCH_SEGMENT_S || 3);

/** A run of misses: its figures, and what each answer cost. */
export interface MissRun extends Figures {
  /** Bytes per answer, headers included. */
  bytes: number;
  /** The server's CPU time per answer, ms. */
  cpu: number;
}

/** CPU time a process has used so far (user + system), ms (Linux, 100 ticks a second). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Every request a miss: a throwaway parameter of its own. */
export async function misses(app: App, url: string, seconds = MISS_SEGMENT_S): Promise<MissRun> {
  let n = 0;
  const cpu0 = cpuMs(app.pid!);
  const r = await autocannon({
    url: app.url + url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (req: any) => ({ ...req, path: `${req.path}&miss=${++n}` }) }],
  });
  const total = Math.max(1, r.requests.total);
  return {
    total: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    bytes: r.throughput.total / total,
    cpu: (cpuMs(app.pid!) - cpu0) / total,
  };
}
