// The profile section: where a spot miss spends its time. The app runs under V8's sampling profiler
// (`--cpu-prof`) while every request is a miss (a throwaway parameter, cache off), and the samples are
// summed by function (self time) and by where the code lives (the framework, our lib/, Node itself).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { CONNECTIONS } from './measure';

const PROFILE_S = Number(process.env.BENCH_PROFILE_S || 10);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, coarsely: what a reader can act on. */
function area(url: string): string {
  if (!url) return '(native / garbage collection / idle)';
  if (url.startsWith('node:')) return 'Node (http, streams, crypto)';
  if (/next[\\/]dist|\.next[\\/]server[\\/](chunks|app)[\\/].*node_modules|[\\/]next-server/.test(url)) return 'Next.js';
  if (/[\\/]lib[\\/]|\.next[\\/]server[\\/]chunks/.test(url)) return 'our code and its bundled libraries (zod, …)';
  if (url.includes('node_modules')) return 'other libraries';
  return 'other';
}

export function summarize(profile: CpuProfile, top = 15): { byArea: [string, number][]; byFunction: [string, number][]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') continue;
    total += us;
    areas.set(area(f.url), (areas.get(area(f.url)) ?? 0) + us);
    // Regular expressions are named by their source: a long one is cut (Node's IPv6 check is 1 KB).
    const fn = f.functionName.length > 60 ? `${f.functionName.slice(0, 57)}…` : f.functionName || '(anonymous)';
    const name = `${fn} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { byArea: sorted(areas), byFunction: sorted(functions).slice(0, top), totalMs: total / 1000 };
}

export async function profileSection() {
  const fake = await FakeUpstream.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-profile-'));
  const app = await App.start({
    env: { ...fake.env(), CACHE_TTL_S: '3600', RESPONSE_CACHE: 'off', NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` },
  });
  let n = 0;
  try {
    // Warm-up (JIT, feeds), then the profiled load.
    await autocannon({ url: `${app.url}/api/v1/spot?w=1`, connections: CONNECTIONS, duration: 2 });
    const r = await autocannon({
      url: `${app.url}/api/v1/spot?x=1`,
      connections: CONNECTIONS,
      duration: PROFILE_S,
      requests: [{ setupRequest: (req: any) => ({ ...req, path: `${req.path}&miss=${++n}` }) }],
    });
    console.log(
      `\n## Where a spot miss goes (V8 sampling profile, ${PROFILE_S} s of misses, ${r.requests.average.toFixed(0)} req/s under the profiler)\n`,
    );
  } finally {
    await app.stop();
    await fake.close();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const { byArea, byFunction, totalMs } = summarize(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile);
  const pct = (us: number) => `${((us / 1000 / totalMs) * 100).toFixed(1)}%`;
  console.log('| where (self time) | share |\n|---|---|');
  for (const [name, us] of byArea) console.log(`| ${name} | ${pct(us)} |`);
  console.log('\n| function (self time) | share |\n|---|---|');
  for (const [name, us] of byFunction) console.log(`| \`${name}\` | ${pct(us)} |`);
  console.log(`\nprofile: ${path.join(dir, file)} (open in Chrome DevTools → Performance)`);
}
