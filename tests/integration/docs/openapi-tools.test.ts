import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, ROOT } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';
import { realChartHandler } from '../../support/yahoo';

// The served OpenAPI document through the tools its users run, each written by someone else:
// Redocly and Spectral lint it, @hey-api/openapi-ts generates a client from it, and a small
// program calls every endpoint through that client, type-checked, against the running app.

const run = promisify(execFile);
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
// Under the project, so the generated program resolves tsx and typescript from its node_modules.
const WORK = path.join(ROOT, 'node_modules/.cache/openapi-tools-test');

let fake: FakeUpstream;
let app: App;
let docPath: string;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // The 5-year history body is large for a loaded machine; this file tests typing, not timeouts.
  app = await App.start({ env: { ...fake.env(), UPSTREAM_TIMEOUT_MS: '10000' } });
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(WORK, { recursive: true });
  const res = await app.get('/api/openapi.json');
  expect(res.status).toBe(200);
  docPath = path.join(WORK, 'openapi.json');
  fs.writeFileSync(docPath, await res.text());
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** Runs a tool; its exit status is left to the caller, which reads the report. */
async function tool(file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: WORK, env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the served OpenAPI document', () => {
  it('passes redocly lint (recommended) with no problem at all', async () => {
    const r = await tool(bin('redocly'), ['lint', '--extends', 'recommended', '--format', 'json', docPath], {
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(r.code).toBe(0);
  }, 180_000);

  it('passes spectral lint (spectral:oas) with no problem at all', async () => {
    const ruleset = path.join(WORK, '.spectral.yaml');
    fs.writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const r = await tool(bin('spectral'), ['lint', docPath, '--ruleset', ruleset, '--format', 'json', '--quiet']);
    const results = JSON.parse(r.stdout || '[]') as { code: string; message: string; path: string[] }[];
    expect(results.map((x) => `${x.code}: ${x.message} at ${x.path.join('.')}`)).toEqual([]);
    expect(r.code).toBe(0);
  }, 180_000);

  it('@hey-api/openapi-ts generates a client that type-checks and calls every endpoint', async () => {
    const gen = await tool(bin('openapi-ts'), ['-i', docPath, '-o', path.join(WORK, 'client')]);
    expect(gen.code, gen.stderr + gen.stdout).toBe(0);
    const types = fs.readFileSync(path.join(WORK, 'client/types.gen.ts'), 'utf8');
    // No generated type shadows a JavaScript global in the files that import it.
    expect(types).not.toMatch(/^export type (Error|Date|Array|Object|Number|String|Map|Set|Record|Response|Request) =/m);
    // The nested objects have names of their own.
    for (const name of ['GoldPrice', 'KaratPrices', 'GoldSource', 'HistoryDay', 'HistoryRanges', 'PriceRange', 'ChartBar', 'IntradayPoint']) {
      expect(types, name).toContain(`export type ${name} =`);
    }

    fs.writeFileSync(path.join(WORK, 'use.ts'), program(app.url));
    fs.writeFileSync(
      path.join(WORK, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['use.ts'],
      }),
    );
    const tsc = await tool(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);

    const out = await tool(process.execPath, ['--import', 'tsx', 'use.ts']);
    expect(out.code, out.stderr).toBe(0);
    const seen = JSON.parse(out.stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({
      spot: { status: 200, unit: 'gram', currency: 'EUR', karat24: 'number' },
      spotUpperCase: { status: 200, unit: 'troy_oz' },
      spotEmpty: { status: 200, currency: 'USD' },
      spotHead: { status: 200, body: '' },
      spotBadUnit: { status: 400, error: 'string' },
      intraday: { status: 200, symbol: 'xau', hours: 6 },
      history: { status: 200, firstDay: 'string' },
      historyCsv: { status: 200, type: 'string', header: 'date,close,high,low', rows: true },
      chart: { status: 200, symbol: 'xau', firstBar: 'number' },
      chartCsv: { status: 200, type: 'string', header: 'time,open,high,low,close,volume', rows: true },
      intradayCsv: { status: 200, type: 'string', header: 'time,price' },
      intradayCsvHead: { status: 200, body: '' },
      chartCsvBadSymbol: { status: 400, error: 'string', valid: true },
      priceText: { status: 200, type: 'string', line: true, state: 'fresh' },
      priceTextBad: { status: 400, type: 'string', line: true },
      reserves: { status: 200, firstCountry: 'string' },
      stream: { currency: 'EUR', unit: 'gram', price: 'number', state: 'fresh' },
    });
  }, 240_000);
});

/**
 * The program a client developer would write. Its types come only from the generated code: a
 * JSON answer is the model, a CSV answer (a `.csv` operation) is a string, an error is ErrorBody.
 */
function program(baseUrl: string): string {
  return `
import { client } from './client/client.gen';
import { getChart, getChartCsv, getHistory, getHistoryCsv, getIntraday, getIntradayCsv, getPriceText, getReserves, getSpot, getStream, headIntradayCsv, headSpot } from './client/sdk.gen';
import type { ErrorBody, GoldPrice, HistoryDay, ChartBar, PriceEvent, Spot } from './client/types.gen';

client.setConfig({ baseUrl: ${JSON.stringify(baseUrl)} });

const header = (text: string) => text.split('\\r\\n')[0];
const rows = (text: string) => text.trimEnd().split('\\r\\n').length > 1;

async function main() {
  const out: Record<string, unknown> = {};

  const spot = await getSpot({ query: { currency: 'EUR', unit: 'gram', compact: '1' } });
  // The client keeps a network failure in \`error\`: say it, rather than report every field undefined.
  if (!spot.response) throw spot.error;
  const body: Spot | undefined = spot.data;
  const xau: GoldPrice | undefined = body?.xau;
  out.spot = { status: spot.response?.status, unit: xau?.unit, currency: xau?.currency, karat24: typeof body?.karats['24k'] };

  const upper = await getSpot({ query: { unit: 'OZ', currency: 'usd' } });
  out.spotUpperCase = { status: upper.response?.status, unit: upper.data?.xau.unit };

  const empty = await getSpot({ query: { currency: '', unit: '' } });
  out.spotEmpty = { status: empty.response?.status, currency: empty.data?.xau.currency };

  const head = await headSpot({ parseAs: 'text' });
  out.spotHead = { status: head.response?.status, body: head.data ?? '' };

  const bad = await getSpot({ query: { unit: 'stone' } });
  const problem: ErrorBody | undefined = bad.error;
  out.spotBadUnit = { status: bad.response?.status, error: typeof problem?.error };

  const intraday = await getIntraday({ query: { symbol: 'xau', hours: 6 } });
  out.intraday = { status: intraday.response?.status, symbol: intraday.data?.symbol, hours: intraday.data?.hours };

  const history = await getHistory();
  const day: HistoryDay | undefined = history.data?.points[0];
  out.history = { status: history.response?.status, firstDay: typeof day?.d };

  const chart = await getChart({ query: { symbol: 'xau', range: '1mo', interval: '1d' } });
  const bar: ChartBar | undefined = chart.data?.points[0];
  out.chart = { status: chart.response?.status, symbol: chart.data?.symbol, firstBar: typeof bar?.c };

  const reserves = await getReserves();
  out.reserves = { status: reserves.response?.status, firstCountry: typeof reserves.data?.countries[0]?.country };

  // The price stream: the generated function follows it, and each item it yields is a PriceEvent.
  const stop = new AbortController();
  const { stream } = await getStream({ query: { currency: 'EUR', unit: 'gram' }, signal: stop.signal, sseMaxRetryAttempts: 0 });
  for await (const event of stream) {
    const e: PriceEvent = event;
    out.stream = { currency: e.currency, unit: e.unit, price: typeof e.price, state: e.data_state.status };
    break;
  }
  stop.abort();

  // The .csv operations: the generated functions themselves type the answer as a string (the
  // client reads text/csv as text), never as the JSON model.
  const historyCsv = await getHistoryCsv();
  const historyText: string | undefined = historyCsv.data;
  // @ts-expect-error a CSV answer is a string: it has no points
  void historyCsv.data?.points;
  out.historyCsv = { status: historyCsv.response?.status, type: typeof historyText, header: header(historyText ?? ''), rows: rows(historyText ?? '') };

  const chartCsv = await getChartCsv({ query: { symbol: 'xau', range: '1mo', interval: '1D' } });
  const chartText: string = chartCsv.data ?? '';
  // @ts-expect-error a CSV answer is a string: it has no symbol
  void chartCsv.data?.symbol;
  out.chartCsv = { status: chartCsv.response?.status, type: typeof chartCsv.data, header: header(chartText), rows: rows(chartText) };

  const intradayCsv = await getIntradayCsv({ query: { hours: 6 } });
  const intradayText: string = intradayCsv.data ?? '';
  out.intradayCsv = { status: intradayCsv.response?.status, type: typeof intradayCsv.data, header: header(intradayText) };

  const intradayCsvHead = await headIntradayCsv({ parseAs: 'text' });
  out.intradayCsvHead = { status: intradayCsvHead.response?.status, body: intradayCsvHead.data ?? '' };

  // Errors of a .csv operation stay JSON, typed and read as ErrorBody.
  const badCsv = await getChartCsv({ query: { symbol: 'gold' } });
  const csvProblem: ErrorBody | undefined = badCsv.error;
  out.chartCsvBadSymbol = { status: badCsv.response?.status, error: typeof csvProblem?.error, valid: Array.isArray(csvProblem?.valid) };

  // price.txt: one number and a newline, typed as a string; its errors are one line of text, typed as strings too.
  const priceText = await getPriceText({ query: { currency: 'EUR', unit: 'gram', karat: '18' } });
  const priceLine: string = priceText.data ?? '';
  out.priceText = {
    status: priceText.response?.status,
    type: typeof priceText.data,
    line: /^\\d+(\\.\\d+)?\\n$/.test(priceLine),
    state: priceText.response?.headers.get('x-data-state'),
  };
  const badPrice = await getPriceText({ query: { metal: 'silver', karat: '18' } });
  // A 405 is the JSON ErrorBody of every path; the others are text.
  const priceProblem: string | ErrorBody | undefined = badPrice.error;
  out.priceTextBad = {
    status: badPrice.response?.status,
    type: typeof priceProblem,
    line: typeof priceProblem === 'string' && /^[^\\n]+\\n$/.test(priceProblem),
  };

  console.log(JSON.stringify(out));
}

// A failure rethrown is an unhandled rejection: the process exits non-zero.
main().catch((err) => {
  console.error(err);
  throw err;
});
`;
}
