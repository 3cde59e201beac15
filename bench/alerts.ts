// The alerts section (decisions §28): what one fresh reading of gold costs the evaluation with 100,000 alerts
// armed and none crossed (target under 5 ms), in process on the embedded store, with the FX table from the fake
// upstream. The alerts are spread over 40 currency/unit groups with levels far from the readings; the first
// reading reads them all and sorts them (once per process, timed apart); a change is then read alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FakeUpstream } from '../tests/support/fake-upstream';

const ARMED = 100_000;
const READINGS = 200;

export async function alertsSection(): Promise<void> {
  const fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-bench-alerts-')), WARM_FEEDS: 'off' });
  try {
    const { getStore } = await import('../lib/store');
    const { ALERTS, newAlert } = await import('../lib/alerts/model');
    const { observe } = await import('../lib/alerts/evaluate');
    const { feeds } = await import('../lib/sources/feeds');
    await feeds.fx.read();
    const store = getStore();
    const currencies = ['USD', 'EUR', 'GBP', 'JPY', 'INR', 'CHF', 'AUD', 'CAD'];
    const units = ['oz', 'gram', 'kg', 'tola', 'tael'] as const;
    const now = Date.now();
    const t0 = performance.now();
    for (let i = 0; i < ARMED; i++) {
      const id = `alrt_bench${i}`;
      // Levels a thousand times above or below any price: armed, never crossed.
      const above = i % 2 === 0;
      const alert = newAlert(
        {
          id,
          token_hash: '00',
          metal: 'gold',
          currency: currencies[i % currencies.length],
          unit: units[i % units.length],
          condition: { type: above ? 'above' : 'below', value: above ? 1e9 + i : 1e-6 * (i + 1) },
          repeat: false,
          rearm_pct: 0.5,
          target: { type: 'webhook', url: `https://hooks.example.com/${i % 5000}` },
          secret: 'whsec_AAAA',
          origin: 'https://bench.example',
        },
        now,
      );
      // Verified and armed, as a webhook alert is once its target answered.
      await store.putDoc(ALERTS, id, { ...alert, state: 'active', armed: true, pending_until: now });
    }
    const written = performance.now() - t0;
    const served = (usd: number, at: number) => ({
      reading: { status: 'fresh' as const, value: usd, asOf: at, source: 'upstream' as const, fetchedAt: at },
      source: 'gold-api.com',
      sources: [],
      crossCheck: { status: 'single' as const, difference_pct: null },
      quote: null,
    });
    let at = Date.now();
    const t1 = performance.now();
    await observe('gold', served(4000, (at += 1000)));
    const first = performance.now() - t1;
    const times: number[] = [];
    for (let i = 0; i < READINGS; i++) {
      const t = performance.now();
      await observe('gold', served(4000 + (i % 2 ? 25 : -25), (at += 1000)));
      times.push(performance.now() - t);
    }
    // One alert changes (as a fire, a re-arm or a creation does): the next reading reads only that one.
    const one = await store.getDoc<Record<string, unknown>>(ALERTS, 'alrt_bench0');
    await store.putDoc(ALERTS, 'alrt_bench0', { ...one, fired_count: 1 });
    const t2 = performance.now();
    await observe('gold', served(4000, (at += 1000)));
    const afterChange = performance.now() - t2;
    times.sort((a, b) => a - b);
    const mean = times.reduce((s, x) => s + x, 0) / times.length;
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    console.log(`\n| alerts: one fresh reading of gold, ${ARMED.toLocaleString('en')} alerts armed, none crossed | ms |`);
    console.log('|---|---|');
    console.log(`| writing the alerts (once, not a reading) | ${written.toFixed(0)} |`);
    console.log(`| first reading: reads and sorts every alert (once per process) | ${first.toFixed(1)} |`);
    console.log(`| a reading, mean of ${READINGS} | ${mean.toFixed(2)} |`);
    console.log(`| the reading after one alert changed (reads that one alert only) | ${afterChange.toFixed(2)} |`);
    console.log(`| a reading, p50 / p99 | ${p(0.5).toFixed(2)} / ${p(0.99).toFixed(2)} |`);
    console.log(`\nmean under 5 ms: ${mean < 5 ? 'met' : 'NOT met'}`);
  } finally {
    await fake.close();
  }
}
