// Records the OpenAPI examples: real responses of this service, built from the recorded real
// upstream responses in tests/fixtures (so every figure traces to a real upstream body).
// Run after a build: npx tsx scripts/record-examples.ts [name ...] (every example by default)
import fs from 'node:fs';
import path from 'node:path';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { SseReader } from '../tests/support/sse';
import { realChartHandler } from '../tests/support/yahoo';

const EXAMPLES: Record<string, string> = {
  spot: '/api/v1/spot?currency=EUR&compact=1',
  intraday: '/api/v1/intraday?hours=1',
  history: '/api/v1/history',
  chart: '/api/v1/chart?symbol=xau&range=6mo&interval=1wk',
  reserves: '/api/v1/reserves',
  value: '/api/v1/value?item=krugerrand&currency=ZAR&quote=76000',
  items: '/api/v1/items',
  // Last, after the others made their upstream calls: the record of this very run.
  status: '/api/v1/status',
  // The data of the stream's first `price` event.
  stream: '/api/v1/stream?currency=EUR',
};
const only = process.argv.slice(2);

async function main() {
  const fake = await FakeUpstream.start();
  // The history example is recorded on the last three months of real daily rows, to keep the OpenAPI document small.
  fake.onChart(realChartHandler('2026-01-16'));
  // No real platinum or palladium body was found (their test bodies are constructed, see tests/fixtures/SOURCES.md):
  // the examples show them as never seen, null and `unavailable`, rather than a made-up figure.
  const notFound = { mode: 'status', status: 404, text: '{"error":"Symbol not found"}' } as const;
  for (const route of ['platinum', 'palladium', 'quotes:XPT', 'quotes:XPD'] as const) fake.set(route, notFound);
  // The in-process sampler records a few real samples for the intraday example (on a trading day, whatever today is).
  // Links in the examples point at a neutral public origin.
  const app = await App.start({
    env: { ...fake.env(), SAMPLER: 'on', SAMPLE_INTERVAL_S: '2', CACHE_TTL_S: '1', PUBLIC_URL: 'https://gold.example', ...marketClockAt(OPEN_DAY) },
  });
  await new Promise((r) => setTimeout(r, 7000));
  try {
    for (const [name, url] of Object.entries(EXAMPLES)) {
      if (only.length && !only.includes(name)) continue;
      const res = await app.get(url);
      let body: unknown;
      if (name === 'stream') {
        const sse = new SseReader(res.body!);
        body = JSON.parse((await sse.next((b) => b.event === 'price')).data!);
        await sse.close();
      } else body = await res.json();
      fs.writeFileSync(path.join(__dirname, '..', 'lib', 'data', 'examples', `${name}.json`), JSON.stringify(body, null, 2) + '\n');
      console.log(`${name}: HTTP ${res.status}`);
    }
  } finally {
    await app.stop();
    await fake.close();
  }
}
main();
