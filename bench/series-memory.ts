// The series-memory section (decisions §29): the built app's RSS idle and after the sweep an attacker would try, against
// the series budget (`SERIES_CACHE_MB`) plus the idle size, and spot checks that the answers are still right.
// The sweep: every currency the rate source lists (the fake's list: the fixture's real rates, tests/fixtures/SOURCES.md)
// × every unit × `range=max`, of the futures series (nineteen years of GC=F) and of gold's monthly series, then 64
// distinct `from=` windows in each listed currency (§29: "64 distinct `from=` windows each"), then all of it again. Run with the response cache off (so the
// series budget is the only cache) at budgets 32 and 128 MiB and with the caches off (`SERIES_CACHE_MB=0`): as
// bench/memory.ts does for the response cache, what the caches add is the growth over the same requests without them.
// Then, beyond §29's sweep, every named window of each currency and unit twice, to see the RSS with the default budget
// (nearly) full: the sweep alone fills about a third of it with the fake's seven currencies.
import { etagOf } from '../lib/http/conditional.mjs';
import { UNITS } from '../lib/reference/units';
import { HISTORY_RANGES } from '../lib/schemas/history';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';
import { fxCurrenciesBody, ratesOf } from '../tests/support/fx-history';
import { marketClockAt } from '../tests/support/market';
import { longChartHandler, longDailyRows } from '../tests/support/yahoo';
import { load1 } from './measure';
import { rssMiB } from './memory';

/** Friday 17 April 2026, 09:00 New York: the session after the fixture's last bar. */
const DAY_AFTER_LAST_BAR = Date.parse('2026-04-17T09:00:00-04:00');
/** The budgets compared, each against the same sweep with the caches off (0), under `npm start`'s Node flags. */
const CONFIGS: { seriesMb: number }[] = [{ seriesMb: 0 }, { seriesMb: 32 }, { seriesMb: 128 }];

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Half away from zero, as the service rounds. */
const round = (v: number, dp: number) => Math.round(v * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp;
/** An answer as the service compares two (its ETag: the body without its time of answer). */
const timeless = (text: string) => etagOf(text);
/** The METRICS_TOKEN the bench's apps take, to read the V8 heap from /metrics. */
const TOKEN = 'bench-series-memory';

/** The rate on `date` (the last published on or before it), by a plain scan of the fixture. */
function rateOn(rates: Map<string, number>, date: string): number | null {
  let best: string | null = null;
  for (const d of rates.keys()) if (d <= date && (best === null || d > best)) best = d;
  return best === null ? null : rates.get(best)!;
}

/** V8's young generation (new space, reserved), its whole heap in use, and what the series caches hold, MiB, from the app's /metrics. */
async function heap(app: App): Promise<{ young: number; used: number; held: number }> {
  const text = await (await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const find = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    young: find(/^goldapi_nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m),
    used: find(/^goldapi_nodejs_heap_size_used_bytes (\d+)/m),
    held: find(/^goldapi_series_cache_bytes\{kind="held"\} (\d+)/m),
  };
}

interface Sweep {
  idle: number;
  /** RSS after the first sweep and after the same sweep again. */
  after: number;
  again: number;
  peak: number;
  youngIdle: number;
  youngAfter: number;
  /** What the series caches held after the second pass, as charged (MiB): how full the budget was. */
  held: number;
  /** After the named windows (every range × grouping of every currency and unit), twice: RSS, and what the caches held. */
  filled: number;
  heldFilled: number;
  /** The highest RSS seen through all of it, the named windows included. */
  peakAll: number;
  requests: number;
  seconds: number;
  checks: string[];
  failures: string[];
}

async function sweep(app: App, currencies: string[]): Promise<Sweep> {
  const failures: string[] = [];
  const checks: string[] = [];
  const rows = longDailyRows();
  // Idle: started, spot and the USD history of both series answered once (the series as fetched, the futures' bars and
  // the monthly workbook's rows, are the data, not a cache).
  await (await app.get('/api/v1/spot')).arrayBuffer();
  await (await app.get('/api/v1/history?range=max')).arrayBuffer();
  await (await app.get('/api/v1/history?series=monthly&range=max')).arrayBuffer();
  await settle(2000);
  const idle = rssMiB(app.pid!);
  const youngIdle = (await heap(app)).young;
  let peak = idle;
  let requests = 0;
  const t0 = Date.now();
  const ask = async (q: string): Promise<string> => {
    const res = await app.get(`/api/v1/history?${q}`);
    const text = await res.text();
    requests++;
    if (res.status !== 200) failures.push(`${q}: HTTP ${res.status}`);
    if (requests % 8 === 0) peak = Math.max(peak, rssMiB(app.pid!));
    return text;
  };
  // The sample, answered first on a cold cache: after the sweep each must be the same.
  const sample = [
    'currency=EUR&range=max',
    'currency=INR&unit=gram&range=max',
    'currency=JPY&unit=tael&range=1y&group=week',
    'series=monthly&currency=EUR&unit=kg&range=max',
  ];
  const before = new Map<string, string>();
  const beforeText = new Map<string, string>();
  for (const q of sample) {
    const text = await ask(q);
    before.set(q, timeless(text));
    beforeText.set(q, text);
  }
  const all = async () => {
    for (const c of currencies) for (const u of UNITS) await ask(`currency=${c}&unit=${u}&range=max`);
    for (const c of currencies) for (const u of UNITS) await ask(`series=monthly&currency=${c}&unit=${u}&range=max`);
    for (const c of currencies) for (let k = 0; k < 64; k++) await ask(`currency=${c}&from=${rows[500 + k * 60].d}`);
    peak = Math.max(peak, rssMiB(app.pid!));
    await settle(2000);
    return rssMiB(app.pid!);
  };
  const after = await all();
  const youngAfter = (await heap(app)).young;
  const again = await all();
  const held = (await heap(app)).held;
  const sweepPeak = peak;
  // Beyond §29's sweep: every named window (each range, daily, weekly and monthly) of each currency and unit, which
  // the caches keep for the requests that share them, twice: enough to fill the default budget.
  for (let pass = 0; pass < 2; pass++)
    for (const c of currencies)
      for (const u of UNITS)
        for (const r of HISTORY_RANGES) for (const g of ['', '&group=week', '&group=month']) await ask(`currency=${c}&unit=${u}&range=${r}${g}`);
  peak = Math.max(peak, rssMiB(app.pid!));
  await settle(2000);
  const filled = rssMiB(app.pid!);
  const heldFilled = (await heap(app)).held;
  const seconds = (Date.now() - t0) / 1000;
  // Still right: the sample equals its cold answers, and closes equal the fixture's own numbers × its rates.
  for (const q of sample) {
    const text = await ask(q);
    const same = timeless(text) === before.get(q);
    checks.push(`${q} ${same ? 'same as cold' : 'DIFFERENT'}`);
    if (!same) {
      const was = beforeText.get(q)!;
      let i = 0;
      while (i < text.length && text[i] === was[i]) i++;
      failures.push(`${q}: differs from its cold answer at ${i}: ${was.slice(i - 60, i + 60)} / ${text.slice(i - 60, i + 60)}`);
    }
  }
  const eur = JSON.parse(await ask('currency=EUR&range=max')) as { points: { d: string; c: number }[] };
  const inr = JSON.parse(await ask('currency=INR&from=2010-01-01&to=2010-12-31')) as { points: { d: string; c: number }[] };
  for (const [name, body, rates] of [
    ['EUR range=max', eur, ratesOf('EUR')],
    ['INR 2010', inr, ratesOf('INR')],
  ] as const) {
    let ok = 0;
    for (const p of body.points) {
      const row = rows.find((r) => r.d === p.d)!;
      const rate = rateOn(rates, p.d);
      if (rate !== null && round(row.c * rate, 2) === p.c) ok++;
    }
    checks.push(`${name}: ${ok} of ${body.points.length} closes equal the fixture's close × its rate`);
    if (ok !== body.points.length || ok === 0) failures.push(`${name}: ${body.points.length - ok} closes wrong`);
  }
  return { idle, after, again, peak: sweepPeak, peakAll: peak, youngIdle, youngAfter, held, filled, heldFilled, requests, seconds, checks, failures };
}

export async function seriesMemorySection(): Promise<void> {
  const currencies = (fxCurrenciesBody() as { iso_code: string }[]).map((c) => c.iso_code);
  console.log(
    `\n## Series memory: RSS (MiB) of \`npm start\` idle and after the sweep (${currencies.length} listed currencies × ${UNITS.length} units × ` +
      '`range=max` of futures and of monthly gold, then 64 `from=` windows in each listed currency; then all of it again), ' +
      `response cache off, load average at start ${load1().toFixed(1)}\n`,
  );
  const problems: string[] = [];
  const rows: { c: (typeof CONFIGS)[number]; s: Sweep }[] = [];
  for (const c of CONFIGS) {
    const fake = await FakeUpstream.start();
    fake.onChart(longChartHandler());
    const env = {
      ...fake.env(),
      ...marketClockAt(DAY_AFTER_LAST_BAR),
      CACHE_TTL_S: '3600',
      METRICS_TOKEN: TOKEN,
      RESPONSE_CACHE: 'off',
      SERIES_CACHE_MB: String(c.seriesMb),
    };
    const app = await App.start({ env });
    try {
      const s = await sweep(app, currencies);
      rows.push({ c, s });
      problems.push(...s.failures.map((f) => `SERIES_CACHE_MB=${c.seriesMb}: ${f}`));
      if (c === CONFIGS[1]) for (const line of s.checks) console.log(`- ${line}`);
    } finally {
      await app.stop();
      await fake.close();
    }
  }
  console.log(
    '\n| SERIES_CACHE_MB | requests | s | RSS idle | after the sweep | after it again | peak | peak − idle | peak over caches off | target: over off within the budget | §29: left over idle (after it again − idle) within the budget | caches held (charged) | then every named window twice: RSS − idle | its peak − idle | caches held | V8 young generation idle → after | answers |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { c, s } of rows) {
    // The same sweep with nothing kept (SERIES_CACHE_MB=0): what the requests cost without the caches.
    const off = rows.find((r) => r.c.seriesMb === 0)?.s;
    const over = off ? s.peak - off.peak : NaN;
    const target = c.seriesMb === 0 || !off ? '' : `${over.toFixed(0)} ≤ ${c.seriesMb}: ${over <= c.seriesMb ? 'met' : 'NOT met'}`;
    // §29's own words: the sweep *leaves* RSS within the budget plus the idle size (the peak is in its own column).
    const left = s.again - s.idle;
    const section29 = c.seriesMb === 0 ? '' : `${left.toFixed(0)} ≤ ${c.seriesMb}: ${left <= c.seriesMb ? 'met' : 'NOT met'}`;
    console.log(
      `| ${c.seriesMb === 0 ? '0 (caches off)' : c.seriesMb} | ${s.requests} | ${s.seconds.toFixed(0)} | ${s.idle.toFixed(0)} | ` +
        `${s.after.toFixed(0)} | ${s.again.toFixed(0)} | ${s.peak.toFixed(0)} | ${(s.peak - s.idle).toFixed(0)} | ${c.seriesMb === 0 ? '' : over.toFixed(0)} | ${target} | ${section29} | ${s.held.toFixed(0)} | ${(s.filled - s.idle).toFixed(0)} | ${(s.peakAll - s.idle).toFixed(0)} | ${s.heldFilled.toFixed(0)} | ` +
        `${s.youngIdle.toFixed(0)} → ${s.youngAfter.toFixed(0)} | ${s.failures.length ? 'WRONG' : 'right'} |`,
    );
  }
  console.log(problems.length ? `\nWrong answers:\n${problems.join('\n')}` : '\nEvery spot check right at every budget.');
  console.log(
    'Without caches the same requests still grow the process: V8 enlarges its young generation under a high allocation rate ' +
      '(up to the cap `npm start` sets), its old generation fills with garbage before a full collection, and the first contact ' +
      'with each currency, the workbook and the code is paid once; "over caches off" is what the caches add.',
  );
}
