// The app section: spot, series and MCP throughput beside the ceiling, widget weights, the KV section
// and the cold-cache stampede.
import { brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { launchBrowser } from '../tests/support/browser';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { realChartHandler } from '../tests/support/yahoo';
import { openEmbeddedStore } from '../lib/store/embedded';
import { kvSection } from './kv';
import { CONNECTIONS, ceiling, load, row, stampede } from './measure';

interface Weight {
  html: [number, number, number];
  js: [number, number, number];
  scripts: number;
}

/** Raw, gzip -9 and brotli bytes of a page's HTML and of every script it references. */
async function weigh(base: string, path: string): Promise<Weight> {
  const sizes = (b: Buffer): [number, number, number] => [b.length, gzipSync(b, { level: 9 }).length, brotliCompressSync(b).length];
  const html = Buffer.from(await (await fetch(base + path)).arrayBuffer());
  const srcs = [...html.toString().matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]).filter((s) => !/nomodule/.test(s));
  const js: [number, number, number] = [0, 0, 0];
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    sizes(body).forEach((n, i) => (js[i] += n));
  }
  return { html: sizes(html), js, scripts: srcs.length };
}

export async function widgets(app: App) {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const pages: [string, string][] = [
    ['price widget', '/widgets/price'],
    ['converter widget', '/widgets/converter'],
    ['chart widget', '/widgets/chart'],
    ['lightest App Router page (/docs/changelog)', '/docs/changelog'],
  ];
  console.log('\n| page | scripts | JS raw / gzip / br KB | HTML raw / gzip / br KB |');
  console.log('|---|---|---|---|');
  const weights: Record<string, Weight> = {};
  for (const [name, path] of pages) {
    const res = await fetch(app.url + path);
    await res.arrayBuffer();
    if (res.status !== 200) continue;
    const w = (weights[name] = await weigh(app.url, path));
    console.log(`| ${name} | ${w.scripts} | ${w.js.map(kb).join(' / ')} | ${w.html.map(kb).join(' / ')} |`);
  }
  const floor = weights['lightest App Router page (/docs/changelog)'];
  for (const name of Object.keys(weights)) {
    if (weights[name] !== floor && floor)
      console.log(`${name}: gzip JS = ${((weights[name].js[1] / floor.js[1]) * 100).toFixed(1)}% of the App Router page's`);
  }
  const browser = await launchBrowser();
  try {
    console.log('\n| widget | first visible price, median of 5 (ms) |');
    console.log('|---|---|');
    for (const [name, path, selector] of [
      ['price', '/widgets/price', '[data-f="price"]'],
      ['converter', '/widgets/converter', '[data-f="result"]'],
      ['chart', '/widgets/chart', '[data-f="price"]'],
    ]) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const page = await browser.newPage();
        const t0 = Date.now();
        const res = await page.goto(app.url + path, { waitUntil: 'commit' });
        if (res?.status() !== 200) break;
        await page.waitForSelector(`${selector}:not(:empty)`);
        times.push(Date.now() - t0);
        await page.close();
      }
      if (times.length) console.log(`| ${name} | ${times.sort((a, b) => a - b)[2]} |`);
    }
  } finally {
    await browser.close();
  }
}

/** 14 days of 2-minute points for both symbols, written straight into the store file. */
async function seedSeries(dataDir: string): Promise<number> {
  const { fixture } = await import('../tests/support/fake-upstream');
  const price = { xau: fixture('goldapi-price-XAU.json').price as number, xag: fixture('goldapi-price-XAG.json').price as number };
  const store = openEmbeddedStore(dataDir);
  const now = Math.floor(Date.now() / 1000);
  let n = 0;
  for (const sym of ['xau', 'xag'] as const) {
    for (let t = now - 14 * 86400; t <= now; t += 120, n++) await store.addPoint(`intraday:${sym}`, { t, p: price[sym] });
  }
  await store.close();
  return n;
}

export async function appSection() {
  const fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // A full 14-day intraday series (2-minute points, both symbols) in the embedded store, recorded
  // here from the one real recorded price per symbol: the point is the store's read cost, not the values.
  const { default: os_ } = await import('node:os');
  const { mkdtempSync } = await import('node:fs');
  const dataDir = mkdtempSync(`${os_.tmpdir()}/goldapi-bench-`);
  const seeded = await seedSeries(dataDir);
  // Warm caches must stay warm for the whole run; MCP's rate window is made short enough not to limit the load.
  const app = await App.start({ env: { ...fake.env(), CACHE_TTL_S: '3600', MCP_RATE_WINDOW_S: '0.001' }, dataDir });
  try {
    const path = '/api/v1/spot?compact=1';
    const warm = await app.get(path);
    const bytes = Buffer.from(await warm.arrayBuffer());
    const bare = await ceiling(bytes, { 'content-type': 'application/json; charset=utf-8' });

    // Warm-up: let the server's JIT settle before measuring.
    await autocannon({ url: app.url + path, connections: CONNECTIONS, duration: 3 });
    const spot = await load(app.url + path);
    const spotBr = await load(app.url + '/api/v1/spot', { 'accept-encoding': 'br' });
    const ref = await load(bare.url);
    bare.close();

    console.log('| endpoint | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    console.log(row('bare node:http, same bytes (ceiling)', ref));
    console.log(row('GET /api/v1/spot?compact=1 (warm)', spot));
    console.log(row('GET /api/v1/spot full table, brotli (warm)', spotBr));
    console.log(`\nspot / ceiling throughput: ${(spot.rps / ref.rps).toFixed(3)}`);
    console.log(`upstream calls during the warm runs: gold ${fake.calls.gold}, fx ${fake.calls.fx}`);

    // Series and MCP, each beside spot in this same run.
    await (await app.get('/api/v1/history')).arrayBuffer();
    const intraday = await load(`${app.url}/api/v1/intraday?hours=48`);
    const history = await load(`${app.url}/api/v1/history`);
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_gold_price', arguments: {} } });
    const mcp = await load(`${app.url}/mcp`, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, mcpBody);
    const points48 = (await app.json('/api/v1/intraday?hours=48')).body.count;
    console.log('\n| endpoint | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    console.log(row('GET /api/v1/spot?compact=1 (warm, from above)', spot));
    console.log(row(`GET /api/v1/intraday?hours=48 (${points48} points of a ${seeded}-point 14-day store)`, intraday));
    console.log(row('GET /api/v1/history (warm cache, 5 years)', history));
    console.log(row('POST /mcp tools/call get_gold_price (warm)', mcp));
    console.log(`\nMCP tools/call / REST spot throughput: ${(mcp.rps / spot.rps).toFixed(3)}`);
    await widgets(app);
  } finally {
    await app.stop();
    await fake.close();
  }

  await kvSection();

  console.log(`\ncold-cache stampede: 500 concurrent requests → ${await stampede()} gold upstream call(s)`);
}
