import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as chartGET } from '@/app/api/v1/chart/route';
import { GET as intradayGET } from '@/app/api/v1/intraday/route';
import { GET as spotGET } from '@/app/api/v1/spot/route';
import { CHART_INTERVALS, CHART_RANGES, CHART_SYMBOLS, reachProblem } from '@/lib/reference/instruments';
import { ApiError } from '@/lib/core/errors';
import { parseQuery } from '@/lib/http/query';
import { MCP_RANGE_TO_CHART } from '@/lib/mcp/ranges';
import { createGoldServer } from '@/lib/mcp/server';
import { OPERATIONS, openApiDocument } from '@/lib/docs/openapi';
import { ChartQuery } from '@/lib/schemas/chart';
import { HistoryQuery } from '@/lib/schemas/history';
import { IntradayQuery } from '@/lib/schemas/intraday';
import { PriceTextQuery } from '@/lib/schemas/price';
import { SpotQuery } from '@/lib/schemas/spot';
import { ValueQuery } from '@/lib/schemas/value';

// One description per input: the query schema is what the route parses with, what the OpenAPI
// parameters say and what the MCP inputs are built from. These checks compare the three surfaces
// by generating each from the running code, not from a list restated here.

let dataDir: string;
beforeAll(() => {
  // Error bodies peek at the store; keep it out of the working tree. No upstream is reached by a 400.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-unit-'));
  process.env.DATA_DIR = dataDir;
  process.env.GOLD_API_URL = 'http://127.0.0.1:9';
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const url = (q: string) => new URL(`http://t/x?${q}`);

describe('parseQuery', () => {
  it('applies defaults, reads list values case-insensitively and whole numbers from digits', () => {
    expect(parseQuery(IntradayQuery, url(''))).toEqual({ symbol: 'xau', hours: 24, format: 'json' });
    expect(parseQuery(IntradayQuery, url('symbol=XAG&hours=6&format=CSV'))).toEqual({ symbol: 'xag', hours: 6, format: 'csv' });
    expect(parseQuery(SpotQuery, url('unit=GRAM&currency=eur'))).toMatchObject({ unit: 'gram', currency: 'eur' });
    expect(parseQuery(ChartQuery, url('symbol=SP500&range=1y&interval=1wk'))).toEqual({
      symbol: 'sp500',
      range: '1y',
      interval: '1wk',
      format: 'json',
    });
  });

  it('ignores unknown parameters and treats empty as absent', () => {
    expect(parseQuery(IntradayQuery, url('cachebust=123&hours='))).toEqual({ symbol: 'xau', hours: 24, format: 'json' });
  });

  it('refuses a parameter given twice', () => {
    expect(() => parseQuery(IntradayQuery, url('hours=1&hours=2'))).toThrow(/given more than once/);
  });

  it('names the valid values of every field it refuses', () => {
    const refusal = (schema: Parameters<typeof parseQuery>[0], q: string) => {
      try {
        parseQuery(schema, url(q));
      } catch (err) {
        if (err instanceof ApiError) return { status: err.status, message: err.message, valid: err.extra.valid as string[] | undefined };
      }
      throw new Error(`${q} was accepted`);
    };
    expect(refusal(SpotQuery, 'unit=stone')).toEqual({
      status: 400,
      message: 'Unsupported unit: stone. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain',
      valid: ['oz', 'gram', 'kg', 'tola', 'tael', 'baht', 'chi', 'luong', 'don', 'pavan', 'dwt', 'grain'],
    });
    expect(refusal(SpotQuery, 'compact=yes')).toMatchObject({ message: 'Invalid compact: yes. Valid values: 1', valid: ['1'] });
    for (const bad of ['0', '49', '1.5', '1e1', '-1', 'abc']) {
      const r = refusal(IntradayQuery, `hours=${bad}`);
      expect(r.message, bad).toBe(`Invalid hours: ${bad}. Valid values: a whole number from 1 to 48`);
      expect(r.valid, bad).toEqual(Array.from({ length: 48 }, (_, i) => String(i + 1)));
    }
    expect(refusal(ChartQuery, 'symbol=gold')).toMatchObject({
      message: /^Invalid symbol: gold\. Valid values: xau, silver/,
      valid: [...CHART_SYMBOLS],
    });
  });

  it('refuses a chart combination beyond an interval’s reach, with the ranges it can serve', () => {
    for (const interval of CHART_INTERVALS) {
      for (const range of CHART_RANGES) {
        const problem = reachProblem(range, interval);
        const q = url(`range=${range}&interval=${interval}`);
        if (!problem) {
          expect(parseQuery(ChartQuery, q), `${range}/${interval}`).toMatchObject({ range, interval });
          continue;
        }
        expect(() => parseQuery(ChartQuery, q), `${range}/${interval}`).toThrow(problem.message);
        for (const ok of problem.valid) expect(reachProblem(ok, interval), `${ok}/${interval}`).toBeNull();
      }
    }
  });
});

describe('REST handlers answer the documented 400s', () => {
  const call = async (handler: (req: Request) => Promise<Response>, q: string) => {
    const res = await handler(new Request(`http://t/x?${q}`));
    return { status: res.status, body: await res.json() };
  };

  it('a bad unit on spot carries `valid`, as every other bad value does', async () => {
    const r = await call(spotGET, 'unit=stone');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'Unsupported unit: stone. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain',
      valid: ['oz', 'gram', 'kg', 'tola', 'tael', 'baht', 'chi', 'luong', 'don', 'pavan', 'dwt', 'grain'],
    });
    expect(r.body.data_state).toBeTruthy();
    expect(r.body.updated_at).toBeTruthy();
  });

  it('intraday and chart name the valid values', async () => {
    expect((await call(intradayGET, 'symbol=btc')).body).toMatchObject({ valid: ['xau', 'xag', 'xpt', 'xpd'] });
    expect((await call(chartGET, 'interval=1m&range=1y')).body).toMatchObject({ valid: ['1d', '5d'] });
  });
});

/** Every enum among the OpenAPI parameters of the REST operations, by operation and name. */
function openApiEnums(): Map<string, string[]> {
  type Schema = { enum?: string[]; anyOf?: Schema[] };
  const doc = openApiDocument('http://t') as { paths: Record<string, { get: { parameters: { name: string; schema: Schema }[] } }> };
  const out = new Map<string, string[]>();
  for (const op of OPERATIONS) {
    for (const p of doc.paths[op.path].get.parameters) {
      // The canonical values come first; the other branch spells them in any letter case.
      const values = (p.schema.anyOf?.[0]?.enum ?? p.schema.enum)?.filter((v) => v !== '');
      if (values) out.set(`${op.path} ${p.name}`, values);
    }
  }
  return out;
}

describe('OpenAPI, REST validation and MCP inputs agree', () => {
  const QUERIES = {
    '/api/v1/spot': SpotQuery,
    '/api/v1/intraday': IntradayQuery,
    '/api/v1/chart': ChartQuery,
    '/api/v1/history': HistoryQuery,
    // The `.csv` twins parse the same query.
    '/api/v1/intraday.csv': IntradayQuery,
    '/api/v1/chart.csv': ChartQuery,
    '/api/v1/history.csv': HistoryQuery,
    '/api/v1/price.txt': PriceTextQuery,
    '/api/v1/value': ValueQuery,
  } as const;

  it('REST accepts every value the OpenAPI document lists and refuses one it does not', () => {
    const enums = openApiEnums();
    expect(enums.size).toBeGreaterThanOrEqual(5);
    for (const [key, values] of enums) {
      const [path, name] = key.split(' ') as [keyof typeof QUERIES, string];
      const schema = QUERIES[path];
      for (const v of values) {
        // A chart interval is checked with a range it can reach, a history symbol with the series that has it (futures are gold alone),
        // a London time with the london series and a metal that has it, a value's field with something to value.
        const reachable = CHART_RANGES.find((r) => !reachProblem(r, v as (typeof CHART_INTERVALS)[number]));
        const extra =
          path.startsWith('/api/v1/chart') && name === 'interval'
            ? `&range=${reachable}`
            : path.startsWith('/api/v1/history') && name === 'symbol'
              ? '&series=spot'
              : path.startsWith('/api/v1/history') && name === 'time'
                ? `&series=london&symbol=${v === 'noon' ? 'xag' : 'xau'}`
                : path === '/api/v1/value' && name !== 'item'
                  ? '&weight=1'
                  : '';
        expect(() => parseQuery(schema, url(`${name}=${v}${extra}`)), key).not.toThrow();
        expect(() => parseQuery(schema, url(`${name}=${v.toUpperCase()}${extra}`)), key).not.toThrow();
      }
      const something = path === '/api/v1/value' ? '&weight=1' : '';
      expect(() => parseQuery(schema, url(`${name}=${something}`)), key).not.toThrow();
      expect(() => parseQuery(schema, url(`${name}=not-a-value${something}`)), key).toThrow(ApiError);
    }
  });

  it('each MCP input enum is its REST enum, or an explicit mapping onto it', async () => {
    const server = createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    const { tools } = await client.listTools();
    const input = (tool: string, arg: string) =>
      (tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, { enum?: string[] }>)[arg].enum;
    const enums = openApiEnums();
    expect(input('get_gold_price', 'unit')).toEqual(enums.get('/api/v1/spot unit'));
    expect(input('get_gold_intraday', 'symbol')).toEqual(enums.get('/api/v1/intraday symbol'));
    expect(input('get_gold_history', 'symbol')).toEqual(enums.get('/api/v1/history symbol'));
    const chartRanges = enums.get('/api/v1/chart range')!;
    expect(input('compare_gold_to_asset', 'range')).toEqual(Object.keys(MCP_RANGE_TO_CHART));
    for (const r of input('compare_gold_to_asset', 'range')!) expect(chartRanges).toContain(MCP_RANGE_TO_CHART[r as keyof typeof MCP_RANGE_TO_CHART]);
    // The history tool's windows are the history endpoint's own.
    for (const arg of ['range', 'series', 'unit', 'group']) expect(input('get_gold_history', arg), arg).toEqual(enums.get(`/api/v1/history ${arg}`));
    // Every chart symbol but gold itself, with Bitcoin spelled `btc` as the tool contract spells it.
    const assets = input('compare_gold_to_asset', 'symbol')!;
    expect(assets.map((s) => (s === 'btc' ? 'bitcoin' : s))).toEqual(enums.get('/api/v1/chart symbol')!.filter((s) => s !== 'xau'));
    await client.close();
    await server.close();
  });
});
