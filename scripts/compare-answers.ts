// `npm run compare-answers -- record FILE` / `-- check FILE`: every public answer of the built app on the
// fake upstream (REST JSON and CSV, errors, OpenAPI, llms.txt, MCP in both eras, widget and docs pages),
// recorded to FILE or compared with it. A change meant to alter no behaviour (a refactor, a move) records
// before and checks after; `check` prints each answer that differs and exits 1.
//
// Times are set aside: an ISO time or unix time within three days of now is `<now>`, ages are `<age>`,
// and the build's own id is `<build>`. Script names carry a hash of the bundle, and minified names in a
// bundle depend on module paths, so a move changes both without changing a line of behaviour: names
// are `<hash>`, and a script's one- and two-letter identifiers are `_`. Everything else, prices and
// headers included, must be equal.
import fs from 'node:fs';
import path from 'node:path';
import { App, ROOT } from '../tests/support/app';
import { dataDirWithBars } from '../tests/support/bars';
import { FakeUpstream, fixtureText } from '../tests/support/fake-upstream';
import { marketClockAt, OPEN_DAY } from '../tests/support/market';
import { call, initialize, modern } from '../tests/support/mcp';
import { realChartHandler } from '../tests/support/yahoo';

const REST = [
  '/api/v1/spot',
  '/api/v1/spot?currency=eur&unit=gram&compact=1',
  '/api/v1/spot?currency=INR&unit=tola&compact=1',
  '/api/v1/spot?currency=JPY&unit=kg',
  '/api/v1/spot?currency=XYZ',
  '/api/v1/spot?unit=stone',
  '/api/v1/intraday',
  '/api/v1/intraday?symbol=xag&hours=2',
  '/api/v1/intraday?symbol=xpt',
  '/api/v1/intraday?hours=99',
  '/api/v1/intraday.csv?symbol=xau',
  '/api/v1/history',
  '/api/v1/history?date=2024-03-01',
  '/api/v1/history?date=2024-03-02',
  '/api/v1/history?date=03/01/2024',
  '/api/v1/history.csv',
  '/api/v1/history?series=spot',
  '/api/v1/history?series=spot&format=csv',
  '/api/v1/history?series=spot&date=2025-06-02',
  '/api/v1/history?series=nope',
  '/api/v1/chart?symbol=xau&range=6mo&interval=1wk',
  '/api/v1/chart?symbol=sp500&range=6mo&interval=1wk',
  '/api/v1/chart.csv?symbol=eurusd&range=6mo&interval=1wk',
  '/api/v1/chart?symbol=xau&range=1y&interval=1m',
  '/api/v1/chart?symbol=doge',
  '/api/v1/reserves',
  '/api/v1/nothing-here',
  '/api/openapi.json',
  '/llms.txt',
  '/widgets/price',
  '/widgets/price?currency=EUR&unit=gram&metal=silver&lang=de&theme=dark',
  '/widgets/chart?range=1mo',
  '/widgets/converter?lang=fr',
  '/',
  '/docs',
  '/docs/api',
  '/docs/data',
  '/docs/mcp',
  '/docs/widgets',
  '/docs/changelog',
  '/embed.js',
];

const HEADERS = [
  'content-type',
  'cache-control',
  'cdn-cache-control',
  'access-control-allow-origin',
  'allow',
  'x-data-state',
  'x-robots-tag',
  'content-security-policy',
];

const TOOLS: [string, Record<string, unknown>][] = [
  ['get_gold_price', {}],
  ['get_gold_price', { currency: 'EUR', unit: 'gram' }],
  ['get_gold_price', { currency: 'nope' }],
  ['get_gold_history', {}],
  ['get_gold_history', { range: '3m', series: 'spot' }],
  ['get_gold_history', { date: '2024-03-01' }],
  ['get_gold_intraday', { symbol: 'xau', hours: 6 }],
  ['compare_gold_to_asset', { symbol: 'sp500', range: '6m' }],
  ['compare_gold_to_asset', { symbol: 'btc' }],
  ['get_central_bank_reserves', { country: 'ger' }],
  ['get_central_bank_reserves', {}],
  ['no_such_tool', {}],
];

type Answer = { status: number; headers: Record<string, string>; body: unknown };

function normalise(value: unknown, buildId: string, now: number, origin: string): unknown {
  const near = (ms: number) => Math.abs(ms - now) < 3 * 86_400_000;
  const walk = (v: unknown, key = ''): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (typeof v === 'number' && /age|uptime/.test(key)) return '<age>';
    if (typeof v === 'number' && /^(t|t0|t1|ts|time)$/.test(key) && near(v * 1000)) return '<now>';
    // A JSON document inside a string (the JSON block of an MCP tool result) is compared as JSON.
    if (typeof v === 'string' && v.startsWith('{')) {
      try {
        return { '<json>': walk(JSON.parse(v)) };
      } catch {
        /* plain text after all */
      }
    }
    if (typeof v === 'string') return text(v);
    return v;
  };
  const text = (s: string) =>
    s
      .split(buildId)
      .join('<build>')
      .split(origin)
      .join('<app>')
      .replace(/(\/w\/[\w-]+)\.[A-Z0-9]{8}\.js/g, '$1.<hash>.js')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?/g, (m) => (near(Date.parse(m.endsWith('Z') ? m : `${m}Z`)) ? '<now>' : m))
      .replace(/\b1\d{9}\b/g, (m) => (near(Number(m) * 1000) ? '<now>' : m))
      .replace(/("\w*(?:age|uptime)\w*":)\d+/g, '$1"<age>"')
      .replace(/\b\d+ (seconds?|minutes?|hours?) old\b/g, '<age> old')
      .replace(/\b\d+ (seconds?|minutes?|hours?|days?) ago\b/g, '<age> ago');
  return walk(value);
}

async function answer(res: Response, buildId: string, now: number, origin: string): Promise<Answer> {
  const raw = await res.text();
  let body: unknown = raw;
  const type = res.headers.get('content-type') ?? '';
  if (raw && type.includes('json')) body = JSON.parse(raw);
  if (type.includes('javascript')) body = raw.replace(/\b[A-Za-z_$][\w$]?\b/g, '_');
  const headers = Object.fromEntries(HEADERS.flatMap((h) => (res.headers.has(h) ? [[h, res.headers.get(h)!]] : [])));
  return normalise({ status: res.status, headers, body }, buildId, now, origin) as Answer;
}

/** POSTs one JSON-RPC message to /mcp with the transport's headers (and a 2026-07-28 request's own). */
function post(app: App, body: unknown, headers: Record<string, string>): Promise<Response> {
  return app.get('/mcp', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
}
const V2025 = { 'mcp-protocol-version': '2025-11-25' };

async function recordAll(): Promise<Record<string, Answer>> {
  const buildId = fs.readFileSync(path.join(ROOT, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'), 'utf8').trim();
  const fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  // Imported gold bars up to the day before the fixed trading day, so spot's change and the spot series have data.
  const dates = fixtureText('gold-daily-ohlc-usd.csv')
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(',')[0])
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && d >= '2025-01-01');
  const dataDir = await dataDirWithBars(dates);
  const app = await App.start({ dataDir, env: { ...fake.env(), ...marketClockAt(OPEN_DAY), CRON_SECRET: 'answers' } });
  const out: Record<string, Answer> = {};
  try {
    const now = Date.now();
    const take = async (res: Promise<Response>) => answer(await res, buildId, now, app.url);
    // One sample of every metal, so intraday has a point and the day's bar is open.
    out['GET /api/cron/sample'] = await take(app.get('/api/cron/sample', { headers: { authorization: 'Bearer answers' } }));
    for (const p of REST) out[`GET ${p}`] = await take(app.get(p));
    out['HEAD /api/v1/spot'] = await take(app.get('/api/v1/spot', { method: 'HEAD' }));
    out['POST /api/v1/spot'] = await take(app.get('/api/v1/spot', { method: 'POST' }));
    out['OPTIONS /api/v1/spot'] = await take(app.get('/api/v1/spot', { method: 'OPTIONS', headers: { origin: 'https://example.org' } }));
    out['MCP 2025-11-25 initialize'] = await take(post(app, initialize('2025-11-25'), V2025));
    out['MCP 2025-11-25 tools/list'] = await take(post(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, V2025));
    for (const [id, method] of ['server/discover', 'tools/list'].entries()) {
      const r = modern(method, {}, id + 1);
      out[`MCP 2026-07-28 ${method}`] = await take(post(app, r.body, r.headers));
    }
    for (const [i, [name, args]] of TOOLS.entries()) {
      const what = `tools/call ${name} ${JSON.stringify(args)}`;
      out[`MCP 2025-11-25 ${what}`] = await take(post(app, call(name, args, 10 + i), V2025));
      const r = modern('tools/call', { name, arguments: args }, 10 + i);
      out[`MCP 2026-07-28 ${what}`] = await take(post(app, r.body, r.headers));
    }
  } finally {
    await app.stop();
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

/** Where two answers first part: the path and both values. */
function firstDifference(a: unknown, b: unknown, at = ''): string {
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d) return d;
    }
    return '';
  }
  if (a === b) return '';
  if (typeof a === 'string' && typeof b === 'string') {
    let i = 0;
    while (a[i] === b[i]) i++;
    return `${at} at character ${i}: before …${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))}… after …${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}…`;
  }
  return `${at}: before ${JSON.stringify(a)} after ${JSON.stringify(b)}`;
}

async function main() {
  const [mode, file] = process.argv.slice(2);
  if (!['record', 'check'].includes(mode) || !file) {
    console.error('usage: npm run compare-answers -- record|check FILE');
    process.exit(2);
  }
  const answers = await recordAll();
  if (mode === 'record') {
    fs.writeFileSync(file, JSON.stringify(answers, null, 1) + '\n');
    console.log(`${Object.keys(answers).length} answers recorded in ${file}`);
    return;
  }
  const before = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Answer>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(answers)])];
  const differ = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(answers[k]));
  for (const k of differ) console.log(`differs: ${k}\n  ${firstDifference(before[k], answers[k])}`);
  console.log(`${keys.length - differ.length} of ${keys.length} answers identical`);
  process.exit(differ.length ? 1 : 0);
}

void main();
