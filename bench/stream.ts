// The stream section (decisions §21): 1,000 open price streams on one instance. Upstream calls over a
// window against an idle instance and one with a single stream, side by side; the RSS each stream adds;
// and the time from an upstream change to the last of the 1,000 clients' events.
import fs from 'node:fs';
import http from 'node:http';
import { App } from '../tests/support/app';
import { FakeUpstream, fixture, PRIMARY_FIXTURE, type RouteName } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { blockSplitter } from '../tests/support/sse';
import { load1 } from './measure';

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS || 1000);
const WINDOW_S = Number(process.env.BENCH_STREAM_S || 180);
const CHANGES = Number(process.env.BENCH_STREAM_CHANGES || 20);
const ROUTES: RouteName[] = ['gold', 'silver', 'platinum', 'palladium', 'quotes', 'fx', 'crypto'];

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** A bare stream reader: the socket, and a callback per `price` event's data (what a browser does, without a browser each). */
interface Reader {
  first: Promise<void>;
  close(): void;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function openStream(base: string, onPrice: (data: string) => void): Reader {
  let ready!: () => void;
  let failed!: (err: Error) => void;
  const first = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const req = http.get(`${base}/api/v1/stream`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) return failed(new Error(`HTTP ${res.statusCode}`));
    res.setEncoding('utf8');
    res.on(
      'data',
      blockSplitter((block) => {
        const data = /^data: (.*)$/m.exec(block);
        if (data && block.startsWith('event: price')) {
          onPrice(data[1]);
          ready();
        }
      }),
    );
  });
  req.on('error', (err) => failed(err));
  return { first, close: () => req.destroy() };
}

/** Opens `n` streams, a few dozen at a time (a burst of a thousand connects is a different benchmark). */
async function openMany(base: string, n: number, onPrice: (i: number, data: string) => void): Promise<Reader[]> {
  const readers: Reader[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) => openStream(base, (d) => onPrice(i + j, d)));
    await Promise.all(batch.map((r) => r.first));
    readers.push(...batch);
  }
  return readers;
}

function calls(fake: FakeUpstream): string {
  return ROUTES.map((r) => `${r} ${fake.calls[r]}`).join(', ');
}

export async function streamSection() {
  const env = { ...marketClockAt(OPEN_DAY), SAMPLER: 'on', WARM_FEEDS: 'on', RESPONSE_CACHE: 'on' };
  console.log(
    `\n## Price stream: ${CLIENTS} open streams on one instance (npm start, service defaults: feed TTL 30 s, sampler every 120 s, market open)\n`,
  );

  // 1. Three instances side by side for the window, each with its own fake upstream: idle, one stream, CLIENTS streams.
  const setups = [
    { name: 'idle (no stream)', n: 0 },
    { name: '1 stream', n: 1 },
    { name: `${CLIENTS} streams`, n: CLIENTS },
  ];
  const fakes = await Promise.all(setups.map(() => FakeUpstream.start()));
  const apps = await Promise.all(fakes.map((f) => App.start({ env: { ...f.env(), ...env } })));
  const readers: Reader[][] = [];
  try {
    // Boot-time work (the warm-up fetch, the sampler's first sample) settles before the window opens.
    await sleep(3000);
    const before = apps.map((a) => rssMiB(a.pid!));
    for (let i = 0; i < setups.length; i++) readers.push(await openMany(apps[i].url, setups[i].n, () => {}));
    await sleep(2000);
    const opened = apps.map((a) => rssMiB(a.pid!));
    fakes.forEach((f) => f.resetCalls());
    const loads = [load1()];
    const t0 = Date.now();
    await sleep(WINDOW_S * 1000);
    loads.push(load1());
    const after = apps.map((a) => rssMiB(a.pid!));
    console.log(`| instance | upstream calls in ${WINDOW_S} s (${ROUTES.join(', ')}) | total | RSS before → with streams → end (MiB) |`);
    console.log('|---|---|---|---|');
    setups.forEach((s, i) => {
      const total = ROUTES.reduce((n, r) => n + fakes[i].calls[r], 0);
      console.log(`| ${s.name} | ${calls(fakes[i])} | ${total} | ${before[i].toFixed(0)} → ${opened[i].toFixed(0)} → ${after[i].toFixed(0)} |`);
    });
    const perClient = ((after[2] - before[2] - (after[1] - before[1])) * 1024) / (CLIENTS - 1);
    console.log(
      `RSS added per stream (end of window, over the one-stream instance's growth): ${perClient.toFixed(1)} KiB; ` +
        `at once after opening: ${(((opened[2] - before[2]) * 1024) / CLIENTS).toFixed(1)} KiB; window ${((Date.now() - t0) / 1000).toFixed(0)} s, ` +
        `load average ${loads.map((l) => l.toFixed(1)).join(' → ')}`,
    );
  } finally {
    readers.flat().forEach((r) => r.close());
    await Promise.all(apps.map((a) => a.stop()));
    await Promise.all(fakes.map((f) => f.close()));
  }

  // 2. Fan-out latency: CLIENTS streams, the gold price changed CHANGES times. Feed TTL 1 s here, so each change is
  // fetched within about a second; the clock starts when the fake upstream answers the app with the new price.
  const fake = await FakeUpstream.start();
  const app = await App.start({ env: { ...fake.env(), ...env, CACHE_TTL_S: '1' } });
  const gold = fixture(PRIMARY_FIXTURE.XAU);
  let want = '';
  let got: number[] = [];
  const seen = new Set<number>();
  let list: Reader[] = [];
  try {
    list = await openMany(app.url, CLIENTS, (i, data) => {
      if (want && !seen.has(i) && data.includes(want)) {
        seen.add(i);
        got.push(Date.now());
      }
    });
    const first: number[] = [];
    const last: number[] = [];
    const loads = [load1()];
    for (let k = 1; k <= CHANGES; k++) {
      const price = Math.round((gold.price + k * 0.37) * 100) / 100;
      want = `"price":${price},`;
      got = [];
      seen.clear();
      const asked = fake.calls.gold;
      fake.set('gold', { mode: 'json', body: { ...gold, price, updatedAt: new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z') } });
      // The moment the app fetches it: the first gold call after the change.
      while (fake.calls.gold === asked) await sleep(2);
      const servedAt = Date.now();
      const deadline = servedAt + 15_000;
      while (seen.size < CLIENTS && Date.now() < deadline) await sleep(5);
      if (seen.size < CLIENTS) throw new Error(`change ${k}: ${seen.size} of ${CLIENTS} clients got it`);
      first.push(Math.min(...got) - servedAt);
      last.push(Math.max(...got) - servedAt);
      await sleep(1500);
    }
    loads.push(load1());
    console.log(
      `\nUpstream change to event, ${CLIENTS} clients, ${CHANGES} changes (feed TTL 1 s; from the fake upstream answering the app with the new price): ` +
        `last client p50 ${pct(last, 50)} ms, p99 ${pct(last, 99)} ms, max ${Math.max(...last)} ms; first client p50 ${pct(first, 50)} ms, p99 ${pct(first, 99)} ms ` +
        `(load average ${loads.map((l) => l.toFixed(1)).join(' → ')})`,
    );
  } finally {
    list.forEach((r) => r.close());
    await app.stop();
    await fake.close();
  }
}
