import { z } from 'zod';
import { Spot, SpotQuery } from '../schemas/spot';
import spotExample from '../data/examples/spot.json';
import intradayExample from '../data/examples/intraday.json';
import { Intraday, IntradayQuery } from '../schemas/intraday';
import { History, HistoryQuery } from '../schemas/history';
import { CSV_TABLES, toCsv, type Table } from '../http/csv';
import { Chart, ChartQuery } from '../schemas/chart';
import historyExample from '../data/examples/history.json';
import chartExample from '../data/examples/chart.json';
import reservesExample from '../data/examples/reserves.json';
import { components } from '../schemas/components';
import { Reserves } from '../schemas/reserves';
import { API_VERSION, VERSION } from '../core/version';
import { listed, METALS, OTHER_METALS } from '../reference/metals';
import { UNITS } from '../reference/units';
import { browserCache, CACHE_SECONDS, sharedCache, type CacheRoute } from '../http/cache';
import { unwrap } from '../schemas/query-fields';
import { PriceEvent, RETRY_MS, StreamQuery } from '../schemas/stream';
import { PriceTextQuery } from '../schemas/price';
import { Items, Value, ValueQuery } from '../schemas/value';
import { COMMON_FINENESS } from '../reference/fineness';
import { ITEMS } from '../reference/items';
import valueExample from '../data/examples/value.json';
import itemsExample from '../data/examples/items.json';
import streamExample from '../data/examples/stream.json';
import statusExample from '../data/examples/status.json';
import { Status } from '../schemas/status';
// The alerts' request and answers register their components (AlertRequest, AlertCreated, AlertView) on import.
import '../schemas/alerts';

// The OpenAPI 3.1 document, generated from the zod schemas that type the responses: one source
// of truth. Each operation lists its query schema, its 200 body and the errors it can answer.

export interface Operation {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  query?: z.ZodObject;
  ok: { schema: z.ZodType; description: string; example?: unknown };
  /** Error statuses this path answers with the Error body. */
  errors: Partial<Record<400 | 404 | 405 | 414 | 503, string>>;
  /** Cache lifetime of a 200 (lib/http/cache.ts). */
  cache: CacheRoute;
  /** Chart only: the lifetime with an intraday interval. */
  cacheIntraday?: CacheRoute;
  /** The CSV table served with `format=csv` (and always on the operation's `.csv` twin). */
  csv?: Table<never>;
  /** A `.csv` twin: its 200 is `text/csv` alone (example: the CSV text), so a generated client types it as a string. */
  csvOnly?: boolean;
  /** Its 200 is one line of `text/plain` (example: the text), its freshness in headers, and its errors one line of text too, but 405 (JSON, as on every path). */
  textOnly?: boolean;
  /** A query a link to the operation carries, where it answers nothing useful without one (llms.txt links to it). */
  linkQuery?: string;
}

const COMMON_ERRORS = {
  405: 'Any method other than GET, HEAD or OPTIONS (with an `Allow` header)',
  414: 'Query string longer than 2,048 characters',
  503: 'A temporary failure, such as the shared store being unreachable: retry shortly',
} as const;

const BASE_OPERATIONS: Operation[] = [
  {
    path: '/api/v1/spot',
    operationId: 'getSpot',
    summary: 'Live gold spot in any currency and unit',
    description:
      `XAU/USD converted with the live FX table into the requested currency and unit (${UNITS.join(', ')}), with ${listed(OTHER_METALS.map((m) => m.name.toLowerCase()))} ` +
      '(USD per troy ounce), the gold/silver ratio, tokenized gold, ' +
      `Bitcoin measured in gold, market caps and supply statistics. Each data group (${METALS.map((m) => m.id).join(', ')}, FX, tokens) is fresh, stale or unavailable ` +
      'on its own (`groups`); `data_state` is the gold price’s, and no other metal’s outage changes it or the HTTP status. Cached 30 s (tokens 60 s, FX 12 h). ' +
      'Every metal comes from two independent live sources: gold-api.com when fresh, else the mid of the swissquote.com bid/ask quotes ' +
      `(\`price_source\` for gold, ${listed(OTHER_METALS.map((m) => `\`${m.sourceField}\``))} name the one served); only when both are down is the last real price served stale. ` +
      '`sources` lists both gold sources with what each holds, `cross_check` says whether they agree within 1.5%, and `bid_usd_oz`/`ask_usd_oz` ' +
      'carry the quotes feed’s gold bid and ask. `market` gives the market hours (New York time): while closed a fresh price does not move. ' +
      'Purities other than the karats of `karats`, for any metal: `fineness` on /api/v1/price.txt and /api/v1/value.',
    tag: 'Prices',
    query: SpotQuery,
    ok: { schema: Spot, description: 'The spot resource (stale: the last real price during an outage)', example: spotExample },
    errors: {
      400: 'Unsupported currency (with `supported`), unit or flag value, or a parameter given twice',
      ...COMMON_ERRORS,
      503: 'Both gold sources are down and no real price has been seen yet',
    },
    cache: 'spot',
  },
  {
    path: '/api/v1/price.txt',
    operationId: 'getPriceText',
    summary: 'One price as text, for a spreadsheet cell, Home Assistant or a shell',
    description:
      `One number and a newline (\`${spotExample.xau.price}\\n\`): the price of \`metal\` (${listed(METALS.map((m) => m.id))}) in \`currency\` per \`unit\`, ` +
      'exactly the figure spot answers (`xau.price`, with `karat` its entry of `karats`; another metal its USD price converted and rounded as `xau.price`; ' +
      'with `fineness`, any metal at that purity, `0.925` or `925`, rounded the same way), ' +
      'from the same served price. The freshness is in the `X-Data-State` header (the metal’s own state: `stale` is the last real price, still a 200) ' +
      'and `X-Updated-At`. Errors are one line of text too: 503 `unavailable` when no real price of the metal has been seen yet, 400 naming the valid values; ' +
      'only a 405 is JSON. Cached and revalidated as spot; unknown parameters are ignored, so a cache-buster passes. ' +
      'Spreadsheets: `=IMPORTDATA(url)` (Google Sheets) or `=WEBSERVICE(url)` (Excel) fill one cell; recipes at /docs/recipes.',
    tag: 'Prices',
    query: PriceTextQuery,
    ok: { schema: z.string(), description: 'The price, one line of text (stale: the last real price)', example: `${spotExample.xau.price}\n` },
    errors: {
      400: 'One line of text: an unsupported currency, unit, metal or karat (a karat with a metal other than gold), a fineness outside (0, 1000], karat and fineness together, or a parameter given twice, with the valid values',
      405: COMMON_ERRORS[405],
      414: 'One line of text: the query string is longer than 2,048 characters',
      503: 'The text `unavailable`: both sources of the metal are down and no real price of it has been seen yet',
    },
    cache: 'spot',
    textOnly: true,
  },
  {
    path: '/api/v1/value',
    operationId: 'getValue',
    summary: 'What a weight of metal, or a number of bullion coins, is worth at spot: the metal value, not a shop’s price',
    description:
      'The metal (melt) value of what you hold: `weight` in `unit` (default gram) at a purity (`karat` for gold, or `fineness` for any metal: a fraction `0.925` ' +
      'or parts per thousand `925`, `999.9`; 1 is pure, never one part per thousand; left out, pure), or `item` (a coin of /api/v1/items, valued by the fine ' +
      `metal its mint states) with \`qty\`, of \`metal\` (${listed(METALS.map((m) => m.id))}; gold by default) in \`currency\`. ` +
      '`melt_value` is fine troy ounces × spot’s USD price × the rate spot uses, 2 decimals: the same served price, FX table and arithmetic as spot, so one ' +
      'gram valued equals spot’s gram. `price` is spot’s own figure for the pure metal per `unit`, so a page can show both. With `quote` (a price asked or ' +
      'offered for the whole, in `currency`): `premium` = quote − metal value and `premium_pct` = (quote ÷ metal value − 1) × 100, negative under the ' +
      'metal’s value. This is what the metal is worth, not what a shop asks or pays: dealers and jewellers sell above it and buy below it, and making ' +
      'charges and taxes are not in it. Common finenesses: ' +
      `${METALS.map((m) => `${m.name.toLowerCase()} ${COMMON_FINENESS[m.id].map((f) => `${f.ppt}${f.name ? ` (${f.name})` : ''}`).join(', ')}`).join('; ')}. ` +
      'The state is the metal’s own (spot’s `groups[metal]`): stale is the last real price, still a 200. Cached as spot.',
    tag: 'Prices',
    query: ValueQuery,
    ok: { schema: Value, description: 'The metal value (stale: at the last real price)', example: valueExample },
    linkQuery: 'weight=12&karat=14&currency=EUR',
    errors: {
      400:
        'A weight that is not a number above 0, `weight` and `item` both or neither, `karat` with another metal than gold, `karat` and `fineness` both, a ' +
        'fineness outside (0, 1000], a purity or another metal with `item`, an unknown item, `qty` not a whole number from 1 or without `item`, a `quote` ' +
        'not above 0, an unsupported currency (with `supported`) or unit, or a parameter given twice (with `valid` where a list has them)',
      ...COMMON_ERRORS,
      503: 'Both sources of the metal are down and no real price of it has been seen yet',
    },
    cache: 'spot',
  },
  {
    path: '/api/v1/items',
    operationId: 'getItems',
    summary: 'The bullion coins /api/v1/value takes as `item`, from their mints’ specifications',
    description:
      `${ITEMS.length} bullion coins people hold (${ITEMS.map((i) => `\`${i.id}\``).join(', ')}), each \`{id, name, metal, issuer, gross_g, fineness, fine_g, fine_oz, source}\` ` +
      'from its mint’s published specification (`source`; for the US circulating silver coins, the law they were struck under). `fine_oz` is the fine metal ' +
      'the mint states (a 1 oz coin holds 1.0000 troy oz, whatever its gross weight times its fineness rounds to) and is what a value is computed from. ' +
      'Data of the release (`data_state.source` `snapshot`, `as_of` the day it was checked against its sources). Cached 1 h.',
    tag: 'Reference',
    ok: { schema: Items, description: 'The list', example: itemsExample },
    errors: { ...COMMON_ERRORS },
    cache: 'items',
  },
  {
    path: '/api/v1/intraday',
    operationId: 'getIntraday',
    summary: 'The recorded intraday series',
    description:
      `This service records the live spot of ${listed(METALS.map((m) => `${m.name.toLowerCase()} (\`${m.intraday}\`)`))} every 2 minutes and keeps 14 days. ` +
      'Points are real samples only, oldest first, ' +
      'never interpolated; gaps mean both sources were down, or the market was closed (nothing is recorded then). `coverage_seconds` shows how much of the window the series covers. ' +
      '`data_state` describes the latest sample (stale once three samples are missed while the market is open; unavailable with no sample in the window).',
    tag: 'Series',
    query: IntradayQuery,
    csv: CSV_TABLES.intraday,
    ok: {
      schema: Intraday,
      description: 'The series for the window (empty, with status unavailable, before the first sample)',
      example: intradayExample,
    },
    errors: {
      400: 'Invalid `symbol`, `hours` or `format` (with `valid`), or a parameter given twice',
      ...COMMON_ERRORS,
      503: 'The store that holds the series cannot be reached (distributed mode with KV down)',
    },
    cache: 'intraday',
  },
  {
    path: '/api/v1/history',
    operationId: 'getHistory',
    summary: 'Gold, silver, platinum and palladium history in any currency and unit: daily since 2000, monthly since 1960',
    description:
      'Four series, each named in `source`. `series=futures` (default): every daily bar of the COMEX front-month gold future (GC=F) since 2000-08-30 ' +
      '(no keyless source serves daily XAU/USD spot with true highs and lows; futures trade a little above spot); the window defaults to 5 years, ' +
      '`range=max` or `from` reach back. Cached 6 h; during an outage the last good series is served stale. `series=spot`: the daily spot bars this service ' +
      'records from the prices it serves (`origin` `recorded`) and any the operator imported (`origin` `imported`), kept 10 years, for the metal `symbol` names ' +
      "(`xau` gold by default, `xag`, `xpt`, `xpd`; the body's `symbol` says which); it begins when the deployment does, so a new deployment answers 200 with no " +
      'points and status unavailable. Each spot point says whether its session has closed (`final`) and how many prices were folded into it (`n`). ' +
      "`series=monthly`: the World Bank's monthly average prices (Pink Sheet, CC BY 4.0) of `xau`, `xag` and `xpt` since 1960-01, points `{d, c}`, with " +
      '`license`, `attribution` and `description`; palladium is a 400. ' +
      "`series=london`: this service's own spot at a London time of day (`time`: gold `am` 10:30 or `pm` 15:00, silver `noon` 12:00, platinum and palladium " +
      '`am` 09:45 or `pm` 14:00, Europe/London; default `pm`, silver `noon`), the first fresh price it took at or after that minute within 5 minutes, one per ' +
      'London business day it observed (none on weekends and England and Wales bank holidays, none filled in), kept 10 years; points `{d, p, t}` (`t` when the ' +
      "reading was taken). These are computed from this service's spot: they are not the LBMA Gold or Silver Price, nor the LME's platinum and palladium prices. " +
      'Another metal\'s `time` is a 400 listing the valid ones. The futures series is gold alone: another `symbol` with it is a 400 whose `valid` is `["xau"]`. ' +
      '`currency` and `unit` convert every point at the central-bank reference rate of its own date (Frankfurter; the last rate published on or before it, ' +
      "named by `fx_d` when older; the monthly series at the month's average rate), never at today's rate; points before the currency's first rate are left " +
      'out (`fx.from`). A currency without a rate history is a 400 listing those with one; when the rates cannot be fetched a converted answer is stale from the ' +
      'rates kept, or 503 when none were ever kept; USD answers never depend on them. Windows: `range` (`1w` to `10y`, `ytd`, `max`), or `from` and `to` (inclusive); `group=week|month|year` makes ' +
      "bars (open first, high max, low min, close last, `days`; each point at its own date's rate first); `year` adds the average of the closes (`avg`) and the change from the last close of " +
      'the year before (`change`, `change_pct`; taken from the series even before the window, null when it has no point in that year). The monthly series takes `year` (its years count `months` ' +
      'and are averages of monthly averages: `bars_of` `monthly_averages`), the london series `year` alone. `date=YYYY-MM-DD` answers the last point on or before it (a Sunday gives Friday) with ' +
      '`requested_date`, 404 only before the first point. Every answer carries `period` (first, last, change, change %, high, low over the points answered); ' +
      'the 52-week statistics stay computed over the whole series. ' +
      'CSV: `date,close,high,low` for futures, `date,open,high,low,close,origin,final,n` for spot, `date,close` for monthly, `date,price,time` for london; grouped bars ' +
      '`date,open,high,low,close,days`, yearly ones `date,open,high,low,close,avg,days,change,change_pct` (`months` on the monthly series); converted answers add `fx,fx_d`.',
    tag: 'Series',
    query: HistoryQuery,
    csv: CSV_TABLES.history,
    ok: { schema: History, description: 'The series in the window asked, its statistics and the period', example: historyExample },
    errors: {
      400:
        'Invalid `series`, `symbol`, `currency` (with the currencies that have a rate history), `unit`, `range`, `group`, `date`, `from`, `to` or `format` (with `valid`); ' +
        '`from` after `to`, a date after today, `range` with `from`, palladium or `group=week` with the monthly series, a `time` the metal does not have or `group` other than `year` with the london series, a `symbol` other than `xau` with the futures series, or a parameter given twice',
      404: 'With `date`: the date is before the first point of the series',
      ...COMMON_ERRORS,
      503: 'Futures: the upstream is down and no series has been fetched yet. Spot: the store holding the bars cannot be reached. Converted: the historical rates are down and none were kept for that currency',
    },
    cache: 'history',
  },
  {
    path: '/api/v1/chart',
    operationId: 'getChart',
    summary: 'OHLCV bars for gold and nine other markets',
    description:
      'Open, high, low, close and volume bars from a third-party market data provider for gold, silver, Bitcoin, the S&P 500, the Nasdaq, ' +
      'the dollar index, EUR/USD, oil, platinum and palladium. Bars whose close is missing upstream are dropped, never filled in. ' +
      'Intraday intervals only reach back so far (1m about 8 days, 2m–90m about 60 days, hourly about 730 days): other combinations are refused with 400. ' +
      'Cached per combination (intraday 60 s, daily 15 min, weekly and monthly 1 h); stale copy during an outage.',
    tag: 'Series',
    query: ChartQuery,
    csv: CSV_TABLES.chart,
    ok: { schema: Chart, description: 'The bars, ascending', example: chartExample },
    errors: {
      400: 'Invalid `symbol`, `range`, `interval` or `format` (with `valid`), a combination the upstream cannot serve, or a parameter given twice',
      ...COMMON_ERRORS,
      503: 'The upstream failed and no copy of this combination is cached',
    },
    cache: 'chart',
    cacheIntraday: 'chartIntraday',
  },
  {
    path: '/api/v1/reserves',
    operationId: 'getReserves',
    summary: 'Central-bank gold holdings by country',
    description:
      'Official gold holdings in metric tonnes for every country that reports a figure, ranked, with the month each figure is for. The live ' +
      'monthly IMF series (IRFCL, via DBnomics) replaces a country’s figure where it is newer and gives the month-over-month change; the rest ' +
      'comes from a real World Gold Council snapshot bundled with the release, which also serves whenever the live source fails ' +
      '(`data_state.source` `snapshot`). Cached 24 h.',
    tag: 'Reference',
    ok: { schema: Reserves, description: 'The ranked table', example: reservesExample },
    errors: { ...COMMON_ERRORS },
    cache: 'reserves',
  },
  {
    path: '/api/v1/status',
    operationId: 'getStatus',
    summary: 'How the sources and the record have behaved',
    description:
      'Every upstream the service calls (gold-api.com, Swissquote, the FX table, historical FX, CoinGecko, the chart upstream, IMF/DBnomics, ' +
      'World Bank) with its state (`ok`, `degraded`, `down`, `unused`; thresholds in the schema), last success, last failure with its kind and ' +
      'HTTP status, availability over 24 hours and 7 days (successful attempts ÷ attempts, with the counts) and latency p50/p95 over 24 hours; ' +
      'the two live spot sources over 24 hours (median and largest gap in basis points, cross-check failures); per metal the last 30 sessions ' +
      'of daily spot bars with `n` and `final`, the sessions with no bar, and the sampler’s last run; the store and whether it answers; the ' +
      'version. Every attempt of every instance is recorded in the store in per-minute buckets kept 7 days, so every instance shows the same ' +
      'figures. 503 when the store does not answer. Cached 30 s.',
    tag: 'Status',
    ok: { schema: Status, description: 'The status record', example: statusExample },
    errors: { ...COMMON_ERRORS, 503: 'The store does not answer: the record cannot be read' },
    cache: 'status',
  },
];

/** The first rows of a CSV answer, made from the recorded JSON example by the same code that serves CSV. */
function csvSample(table: Table<never>, example: unknown): string {
  return (
    toCsv(table, example as never)
      .split('\r\n')
      .slice(0, 4)
      .join('\r\n') + '\r\n'
  );
}

/**
 * A series operation's `.csv` twin (`/api/v1/history.csv`, `getHistoryCsv`): the answer of `format=csv`
 * as an operation of its own. OpenAPI gives one path and method one operation, whatever the query, and
 * generators type each operation by its JSON answer: only a separate path can be typed as text.
 */
function csvTwin(op: Operation & { csv: Table<never> }): Operation {
  // The `format` parameter's own words for the columns (history names two tables, one per series).
  const columns = (op.query?.shape.format?.meta() as { description?: string } | undefined)?.description?.replace(/^`csv`: /, '');
  return {
    ...op,
    path: `${op.path}.csv`,
    operationId: `${op.operationId}Csv`,
    summary: `${op.summary}, as CSV`,
    description:
      `Always CSV: the answer of \`${op.path}?format=csv\` (the series is described there), with the same parameters, caching and JSON errors; ` +
      'the freshness rides in the `X-Data-State` and `X-Updated-At` headers. `format` is not needed: when sent it must be `csv` or empty, anything else is a 400. ' +
      `Columns: ${columns ?? `\`${op.csv.columns.join(',')}\``}; times ISO 8601 UTC.`,
    ok: { schema: op.ok.schema, description: 'The header row, then one row per point', example: op.ok.example && csvSample(op.csv, op.ok.example) },
    csvOnly: true,
  };
}

/** Every REST operation, each series endpoint followed by its `.csv` twin. */
export const OPERATIONS: Operation[] = BASE_OPERATIONS.flatMap((op) => (op.csv ? [op, csvTwin({ ...op, csv: op.csv })] : [op]));

type Json = Record<string, unknown>;

// Nested objects get names too, so a generated client has a type for each (named here, not in the
// schema files: those stay plain shapes).
const NESTED: [z.ZodType, string][] = [
  [Spot.shape.xau, 'GoldPrice'],
  [Spot.shape.karats, 'KaratPrices'],
  [Spot.shape.sources.element, 'GoldSource'],
  [unwrap(Spot.shape.debug), 'SpotDebug'],
  [Intraday.shape.points.element, 'IntradayPoint'],
  [History.shape.points.element, 'HistoryDay'],
  [History.shape.ranges, 'HistoryRanges'],
  [History.shape.ranges.shape.day, 'PriceRange'],
  [Chart.shape.points.element, 'ChartBar'],
];
for (const [schema, id] of NESTED) if (!components.has(schema)) components.add(schema, { id });

/** zod → JSON Schema for OpenAPI 3.1: named schemas by reference to the components, no draft headers. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const id = components.get(schema)?.id;
  if (id && io === 'output') return { $ref: `#/components/schemas/${id}` };
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  return clean(out);
}

/** Drops `$schema`/`$id` and `additionalProperties: false`: v1 may add fields (additive changes only). */
function clean<T>(node: T): T {
  if (Array.isArray(node)) return node.map(clean) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === '$id' || (k === 'additionalProperties' && v === false)) continue;
    out[k] = clean(v);
  }
  return out as T;
}

function componentSchemas(): Json {
  const all = z.toJSONSchema(components, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as {
    schemas: Json;
  };
  return clean(all.schemas);
}

/** `^(?:[oO][zZ]|…)?$`: the values in any letter case, or empty. */
function anyCase(values: readonly string[]): string {
  const letters = (v: string) =>
    [...v]
      .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
  return `^(?:${values.map(letters).join('|')})?$`;
}

const EMPTY = 'An empty value (`name=`) is the same as leaving the parameter out.';

/**
 * The query parameters as a request may spell them, which is wider than the parsed values: REST reads
 * list values case-insensitively (`unit=OZ` is `oz`) and treats an empty value as absent
 * (lib/http/query.ts). The canonical values come first, so generated clients still offer them.
 */
function parameters(query: z.ZodObject | undefined): Json[] {
  if (!query) return [];
  return Object.entries(query.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    const parsed = jsonSchema(f, 'input');
    const meta = (f.meta() ?? {}) as { description?: string; examples?: unknown[] };
    const { default: dflt, examples, description, ...rest } = parsed as Json & { enum?: string[]; const?: string; type?: string };
    const base = unwrap(f);
    let schema: Json;
    let rule = EMPTY.replace('name', name);
    if (base instanceof z.ZodEnum) {
      schema = { anyOf: [rest, { type: 'string', pattern: anyCase(rest.enum ?? []), description: 'The same values in any letter case, or empty' }] };
      rule = `Case-insensitive: any letter case is read as lower case. ${rule}`;
    } else if (base instanceof z.ZodLiteral) {
      schema = { type: 'string', enum: [rest.const, ''] };
    } else if (rest.type === 'string') {
      schema = rest;
    } else {
      schema = { anyOf: [rest, { type: 'string', const: '', description: 'Empty: the default' }] };
    }
    return {
      name,
      in: 'query',
      required: !f.safeParse(undefined).success,
      description: `${meta.description ?? description ?? ''}. ${rule}`.replace(/^\. /, ''),
      schema: { ...schema, ...(dflt !== undefined ? { default: dflt } : {}), ...(examples ? { examples } : {}) },
      ...(meta.examples?.length ? { example: meta.examples[0] } : {}),
    };
  });
}

/** Both caching headers of a 200, from the same table the routes read. */
function cachingHeaders(op: Operation): Json {
  const n = CACHE_SECONDS[op.cache];
  const m = op.cacheIntraday && CACHE_SECONDS[op.cacheIntraday];
  const alt = (f: (s: number) => string) => (m ? ` (intraday intervals: \`${f(m)}\`)` : '');
  return {
    'Cache-Control': {
      description: `For browsers: \`${browserCache(n)}\`${alt(browserCache)}.`,
      schema: { type: 'string', example: browserCache(n) },
    },
    'CDN-Cache-Control': {
      description:
        `For shared caches (RFC 9213; a CDN reads it instead of Cache-Control): \`${sharedCache(n)}\`${alt(sharedCache)}. ` +
        'A cached copy may read `fresh` in `data_state`, which describes the moment the answer was made: compare `updated_at` with the current time.',
      schema: { type: 'string', example: sharedCache(n) },
    },
    ...VALIDATORS,
  };
}

/** The validators of every cacheable 200 and its 304 (decisions §23). */
const VALIDATORS: Json = {
  ETag: {
    description:
      'Weak validator of the answer, the same on every instance; answer-time fields (`updated_at`, `price_as_of`, `age_seconds`) do not change it, the data does. Send it back in `If-None-Match`.',
    schema: { type: 'string', example: 'W/"kq0cB5n2xV1Tg6nA3bJx9m0Vt8Q"' },
  },
  'Last-Modified': {
    description:
      'The newest data time the answer shows (the latest `as_of` in it, HTTP date), the same on every instance; send it back in `If-Modified-Since`. `If-None-Match` is the better validator: it also sees a change of state without newer data.',
    schema: { type: 'string', example: 'Wed, 25 Nov 2026 14:30:00 GMT' },
  },
};

/**
 * The one operation that pushes rather than answers: GET /api/v1/stream (decisions §21). Its 200 is a
 * text/event-stream whose `price` events carry PriceEvent as their data (the schema of that media type, as
 * event-stream generators read it); never cached, so no caching headers and no validators.
 */
export const STREAM_OPERATION = {
  path: '/api/v1/stream',
  operationId: 'getStream',
  summary: 'Live prices pushed as they change (Server-Sent Events)',
  description:
    `Every served metal in the requested currency and unit, pushed: on connect \`retry: ${RETRY_MS}\` and at once a \`price\` event with the current state, ` +
    'then a `price` event whenever a price or a data state changes (the same served price as spot, checked every second; the numbers equal spot’s). ' +
    'Each event is `event: price`, `id: <ms>` (the time of the newest price in it) and one `data:` line of JSON (PriceEvent). A reconnecting ' +
    'client (`Last-Event-ID`) gets the current state at once; nothing is replayed. A `heartbeat` event (`data: {"every_s":15}`: seconds between heartbeats) comes ' +
    'every 15 s when nothing else was sent: an event, not a comment, so a client that hears nothing for twice `every_s` knows a proxy holds its ' +
    'stream back and can poll /api/v1/spot instead (the widgets do). Each stream ends after `STREAM_MAX_S` (280 s on Vercel, 3,600 s elsewhere), or when its instance stops, with a last comment, and EventSource reconnects by itself. ' +
    'Stale: the last real price with `data_state.status` `stale`; never seen: null. Clients cause no upstream calls: one read per instance serves every stream.',
  tag: 'Prices',
  query: StreamQuery,
  ok: { schema: PriceEvent, description: 'The stream: `retry`, then `price` events and `heartbeat` events', example: streamExample },
  errors: {
    400: 'Unsupported currency (with `supported`) or unit, or a parameter given twice: before any stream starts',
    405: COMMON_ERRORS[405],
    414: COMMON_ERRORS[414],
    503: 'The stream is turned off on this server (`STREAM=off`), or the server holds as many streams as it takes (with `Retry-After`): poll /api/v1/spot',
  },
};

function streamPath(): Json {
  const op = STREAM_OPERATION;
  const headers: Json = {
    'Cache-Control': {
      description: '`no-store, no-transform`: never cached, never compressed on the way',
      schema: { type: 'string', example: 'no-store, no-transform' },
    },
    'X-Accel-Buffering': { description: '`no`: proxies pass each event on at once', schema: { type: 'string', example: 'no' } },
  };
  const content = {
    'text/event-stream': {
      schema: jsonSchema(op.ok.schema),
      example: op.ok.example,
    },
  };
  const responses: Json = { 200: { description: op.ok.description, headers, content } };
  const headResponses: Json = { 200: { description: 'The headers of the stream, with no body', headers } };
  for (const [status, description] of Object.entries(op.errors)) {
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
    headResponses[status] = { description: `${description}: headers only` };
  }
  const params = [
    ...parameters(op.query),
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'Sent by EventSource when it reconnects: the answer starts with the current state all the same (only the latest price matters).',
      schema: { type: 'string' },
    },
  ];
  return {
    get: { operationId: op.operationId, summary: op.summary, description: op.description, tags: [op.tag], parameters: params, responses },
    head: {
      operationId: 'headStream',
      summary: `${op.summary} (headers only)`,
      description: `The headers \`GET ${op.path}\` would send (a 400 for a bad currency or unit included), with no body and no stream opened.`,
      tags: [op.tag],
      parameters: params,
      responses: headResponses,
    },
  };
}

/** The freshness of a text answer (`price.txt`), in headers as on the CSV answers. */
const TEXT_STATE_HEADERS: Json = {
  'X-Data-State': {
    description:
      'The status of the `data_state` of the metal answered: `fresh`, `stale` (the last real price) or `unavailable`; on a 400 or 414, the gold price’s, as every REST error carries',
    schema: { type: 'string', enum: ['fresh', 'stale', 'unavailable'] },
  },
  'X-Updated-At': { description: 'When the answer was generated (ISO 8601)', schema: { type: 'string', format: 'date-time' } },
};

/** Revalidation: the request headers a client that holds an answer sends. */
const CONDITIONAL_PARAMETERS: Json[] = [
  {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of an answer you hold: 304 with no body while it is current.',
    schema: { type: 'string' },
  },
  {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description: 'The `Last-Modified` of an answer you hold (read only without `If-None-Match`): 304 while nothing changed since.',
    schema: { type: 'string' },
  },
];

/** POST /api/v1/alerts and an alert's manage URL (decisions §28): the only operations that are not GET. */
export function alertPaths(): Json {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
  const off = error('Alerts are turned off on this deployment (ALERTS=off)');
  const idParams = [
    { name: 'id', in: 'path', required: true, description: 'The alert’s id (`alrt_…`)', schema: { type: 'string' } },
    { name: 'token', in: 'query', required: true, description: 'The manage token from `manage_url`', schema: { type: 'string' } },
  ];
  const notFound = error('No such alert, or a wrong token (the same answer for both)');
  const tooLong = error('Query string over 2048 characters');
  return {
    '/api/v1/alerts': {
      post: {
        operationId: 'createAlert',
        summary: 'Create a price alert delivered to a webhook or a browser (Web Push)',
        description:
          'Keyless: the answer holds the alert’s `manage_url` (with a random token: GET shows the alert, DELETE removes it) and the signing ' +
          '`secret` (`whsec_…`), both shown once. The target first receives an `alert.verification` event and must answer 2xx within 10 s ' +
          'with the `challenge` in its body; the alert is `pending` until then (24 h at most). Then, on every fresh reading of the metal, ' +
          'a crossing of the level between two readings both taken after the alert was armed (previous < level ≤ current for `above`; ' +
          'current ≤ level < previous for `below`; ±P % of the day change for `move_pct`) sends one `alert.triggered` event, never on a ' +
          'stale price, as a Standard Webhooks POST (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The event is kept with the ' +
          'alert’s fired mark in one write, so a crash cannot lose it; it may come twice with the same `webhook-id` (deduplicate on it). ' +
          'Retried with the same `webhook-id` after a timeout, a network error, 429 or 5xx (5 s, 5 min, 30 min, 2 h, 5 h, 10 h); another 4xx ' +
          'fails at once, 410 disables, three failed events in a row disable; redirects are not followed. The URL must be https on a public ' +
          'address. With `push` (a browser’s PushSubscription on a known push service, subscribed with `/api/v1/alerts/push-key`) the alert ' +
          'is active at once and each event is a Web Push notification (aes128gcm, VAPID, a TTL and a Topic per alert) that is a Declarative ' +
          'Web Push message (`web_push: 8030`, `notification: {title, body, navigate}`); a 404 or 410 from the push service removes every ' +
          'alert of that subscription. 10 creations per client per hour, counted first, before the body is read or any name looked up, ' +
          'refused ones included; 20 live alerts per target URL. Alerts expire after 90 days (unverified ones after 24 h) and leave the ' +
          'store within a day after. Body: JSON, at most 4 KB.',
        tags: ['Alerts'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AlertRequest' } } } },
        responses: {
          201: {
            description: 'Created; `Location` is the manage URL',
            headers: {
              Location: { description: 'The manage URL', schema: { type: 'string' } },
              RateLimit: { description: 'What is left of the creation limit (IETF draft)', schema: { type: 'string' } },
              'RateLimit-Policy': { description: '`"alerts";q=10;w=3600`', schema: { type: 'string' } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/AlertCreated' } } },
          },
          400: error(
            'Invalid alert (the field named, with `valid` values where a list has them; a repeating `move_pct` not above `rearm_pct`), or a target refused (not https, not public, on no known push service, or a name that does not resolve within 3 s)',
          ),
          413: error('Body larger than 4 KB'),
          429: error('Over 10 creations per client per hour (with `Retry-After`), or 20 live alerts on this target URL'),
          503: error(
            'Alerts are turned off on this deployment (ALERTS=off), or too many targets are being checked at once (with `Retry-After: 5`: try again)',
          ),
        },
      },
    },
    '/api/v1/alerts/push-key': {
      get: {
        operationId: 'getPushKey',
        summary: 'The VAPID public key for Web Push alerts',
        description:
          'The `applicationServerKey` a browser subscribes with (`pushManager.subscribe`) before it POSTs its subscription as `push` to ' +
          '`/api/v1/alerts`: VAPID_PUBLIC_KEY when set, else a key pair made once and kept in the store. Not cached.',
        tags: ['Alerts'],
        responses: {
          200: { description: 'The key', content: { 'application/json': { schema: { $ref: '#/components/schemas/PushKey' } } } },
          414: tooLong,
          503: off,
        },
      },
      head: {
        operationId: 'headPushKey',
        summary: 'The VAPID public key (headers only)',
        description: 'The headers `GET /api/v1/alerts/push-key` would send, with no body.',
        tags: ['Alerts'],
        responses: {
          200: { description: 'The key: headers only' },
          414: { description: 'Query string over 2048 characters: headers only' },
          503: { description: 'Alerts off: headers only' },
        },
      },
    },
    '/api/v1/alerts/{id}': {
      get: {
        operationId: 'getAlert',
        summary: 'An alert, its status and its latest deliveries',
        description: 'The manage URL given at creation. Not cached.',
        tags: ['Alerts'],
        parameters: idParams,
        responses: {
          200: { description: 'The alert', content: { 'application/json': { schema: { $ref: '#/components/schemas/AlertView' } } } },
          404: notFound,
          503: off,
        },
      },
      head: {
        operationId: 'headAlert',
        summary: 'An alert (headers only)',
        description: 'The headers `GET /api/v1/alerts/{id}` would send, with no body.',
        tags: ['Alerts'],
        parameters: idParams,
        responses: {
          200: { description: 'The alert: headers only' },
          404: { description: 'No such alert: headers only' },
          503: { description: 'Alerts off: headers only' },
        },
      },
      delete: {
        operationId: 'deleteAlert',
        summary: 'Delete an alert',
        description: 'Removes the alert; no event is sent for it from then on.',
        tags: ['Alerts'],
        parameters: idParams,
        responses: { 204: { description: 'Deleted' }, 404: notFound, 503: off },
      },
    },
  };
}

export function openApiDocument(origin: string): Json {
  const paths: Json = {};
  for (const op of OPERATIONS) {
    const content: Json = {};
    if (!op.csvOnly && !op.textOnly)
      content['application/json'] = { schema: jsonSchema(op.ok.schema), ...(op.ok.example ? { example: op.ok.example } : {}) };
    const headers = cachingHeaders(op);
    if (op.textOnly) {
      content['text/plain'] = { schema: { type: 'string', description: 'One number and a newline' }, example: op.ok.example };
      Object.assign(headers, TEXT_STATE_HEADERS);
    }
    if (op.csv) {
      const sample = op.csvOnly ? op.ok.example : op.ok.example && csvSample(op.csv, op.ok.example);
      const header = `a header row \`${op.csv.columns.join(',')}\` and one row per point, times ISO 8601 UTC`;
      content['text/csv'] = {
        schema: { type: 'string', description: op.csvOnly ? `CSV: ${header}` : `With format=csv: ${header}` },
        ...(sample ? { example: sample } : {}),
      };
      const only = op.csvOnly ? '' : 'CSV only: ';
      headers['X-Data-State'] = {
        description: `${only}\`data_state.status\` of the series (fresh, stale or unavailable)`,
        schema: { type: 'string' },
      };
      headers['X-Updated-At'] = {
        description: op.csvOnly ? 'When the answer was generated (ISO 8601)' : 'CSV only: when the answer was generated (ISO 8601)',
        schema: { type: 'string' },
      };
      if (op.path.startsWith('/api/v1/history')) {
        headers['X-Series'] = { description: `${only}\`series\` of the answer: which series the rows are`, schema: { type: 'string' } };
      }
    }
    const notModified = {
      description:
        'Not modified: the answer your `If-None-Match` or `If-Modified-Since` names is current. No body; the same caching headers and validators',
      headers: { ...cachingHeaders(op), ...(op.textOnly ? TEXT_STATE_HEADERS : {}) },
    };
    const responses: Json = { 200: { description: op.ok.description, headers, content }, 304: notModified };
    // HEAD answers as GET would, headers only.
    const headResponses: Json = { 200: { description: `${op.ok.description}: headers only`, headers }, 304: notModified };
    for (const [status, description] of Object.entries(op.errors)) {
      responses[status] =
        op.textOnly && status !== '405'
          ? { description, headers: TEXT_STATE_HEADERS, content: { 'text/plain': { schema: { type: 'string', description: 'One line of text' } } } }
          : { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
      headResponses[status] = { description: `${description}: headers only` };
    }
    const params = [
      ...parameters(op.query)
        .filter((p) => !(op.csvOnly && p.name === 'format'))
        .map((p) =>
          p.name === 'format' && !op.csvOnly
            ? {
                ...p,
                description: `${p.description} Typed clients: \`${op.path}.csv\` answers the same CSV as an operation of its own, typed as a string.`,
              }
            : p,
        ),
      ...CONDITIONAL_PARAMETERS,
    ];
    paths[op.path] = {
      get: { operationId: op.operationId, summary: op.summary, description: op.description, tags: [op.tag], parameters: params, responses },
      head: {
        operationId: op.operationId.replace(/^get/, 'head'),
        summary: `${op.summary} (headers only)`,
        description: `The headers \`GET ${op.path}\` would send, with no body: status, caching and content type.`,
        tags: [op.tag],
        parameters: params,
        responses: headResponses,
      },
    };
  }
  paths[STREAM_OPERATION.path] = streamPath();
  Object.assign(paths, alertPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gold API',
      version: API_VERSION,
      summary: 'Free, keyless gold market data, honest about freshness',
      description:
        'REST API for gold market data, read-only but for keyless price alerts (`/api/v1/alerts`). No key, no account, CORS open. A price is never simulated or invented: during an ' +
        'upstream outage the last real price is served with `stale: true`; with none, the answer is 503 `unavailable`. Every response ' +
        'carries `data_state` and `updated_at`. Prices are indicative mid-market reference rates, not tradable quotes. ' +
        `Service build ${VERSION}.`,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Gold API', url: `${origin}/docs` },
    },
    servers: [{ url: origin }],
    // No key, no account: no operation needs authentication.
    security: [],
    tags: [
      { name: 'Prices', description: 'Live spot gold, silver, platinum and palladium in any currency and unit, and what a holding of them is worth' },
      { name: 'Series', description: 'Time series: the recorded intraday samples, daily history and OHLCV bars' },
      { name: 'Reference', description: 'Reference tables: central-bank gold holdings by country, the bullion coins' },
      { name: 'Status', description: 'How the upstream sources and the service’s own record have behaved' },
      { name: 'Alerts', description: 'Keyless price alerts delivered to your webhook (the only operations that write)' },
    ],
    paths,
    components: { schemas: componentSchemas() },
  };
}
