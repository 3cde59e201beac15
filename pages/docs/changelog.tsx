import type { PageConfig } from 'next';
import { API_VERSION } from '@/lib/core/version';
import { PageHead } from '@/site/layout';
import { originProps } from '@/site/page-props';

const CHANGES: [string, string, string][] = [
  [
    'v1.11',
    '2026-12',
    "What the metal people hold is worth: `GET /api/v1/value` (a weight in any unit at a karat or a `fineness`, or a bullion coin of `GET /api/v1/items` with a count, of any metal in any currency; `melt_value` equals spot to the digit, `price` is spot's own figure, an optional `quote` gives its premium over the metal's value) and the MCP tool `get_metal_value`; the units of the world's markets on every surface that takes `unit` (`chi`, `luong`, `don`, `pavan`, `dwt`, `grain`); `fineness` (a fraction or parts per thousand) beside gold's karats on price.txt and value; the price pages' \"what your metal is worth\" forms (working with scripts off), a quantity table and the coins' metal values, and the converter widget with `fineness`; always the metal's value, never a shop's price. " +
      "Why the price moved: every change carries `from_metal` and `from_currency` (spot, the stream, `get_gold_price`), and each price page says it in words, with a performance table (1 week to since the start, each figure history's `period.change_pct`, naming its series) and a table of years; history takes `group=year` and `range=1w`. " +
      "Any Redis for self-hosted scale: `REDIS_URL` (`redis://`, `rediss://`, user and password) selects a shared store over TCP with the Upstash store's contract, and docs/deploying.md runs many `npm start` instances behind a tested nginx configuration. " +
      "The v1.10 edges: an alert's event is kept with its fired mark, so a crash cannot lose it; creations count against the limit before any lookup, lookups and deliveries are bounded; ended alerts leave; a push subscription's 404/410 removes all its alerts; Declarative Web Push; no alert form with `ALERTS=off`. `MCP_POOLS` gives hosted agent platforms' published ranges a pool of their own (Anthropic's 160.79.104.0/21 by default); a history tool answer past an agent's token cap is grouped, saying where every point is. Pages: the headline fits a 360 px phone in every currency and unit with spot's exact decimals, the pill says when the exchange rate is stale, 1D and palladium's MAX are drawn in the page's currency and unit; one function computes every price; the 404 page lists the currencies and the sitemap the docs. The README is a front door, the rest in docs/.",
  ],
  [
    'v1.10',
    '2026-11',
    "Price pages for people: `/{metal}/{currency}/{unit}` for the four metals, every currency spot accepts and every unit, server-rendered (the price exactly as spot serves it, freshness, day change with sign and arrow, previous close, session high and low, bid and ask, market hours, the four metals, the karat table), live from the price stream, with a chart from one day to 1960 that names its series, the value on a date, a converter both ways, currency, unit and language pickers (eleven languages, right-to-left for Arabic), Open Graph images, `/sitemap.xml` and `/robots.txt`. `/` and `/{metal}` answer in the visitor's saved choice or their language's region; the developer home moved to `/developers`. " +
      "Keyless price alerts: `POST /api/v1/alerts` with a webhook (Standard Webhooks signatures, a verification handshake, retries with the same id, refused for every private, loopback or link-local address at creation and at connection) or a browser's push subscription (Web Push with the deployment's VAPID key), and a manage URL to see or cancel it. " +
      'London-time reference values: `history?series=london&symbol=xau&time=am|pm` (silver `noon`), the first fresh spot reading at or after each London time on London business days, recorded by this service from its own spot (not the LBMA or LME prices). ' +
      '`GET /api/v1/price.txt`: one number as text for a spreadsheet cell, Home Assistant or a shell; `/docs/recipes` for Google Sheets, Excel, Home Assistant, Portfolio Performance, Grafana and curl. ' +
      'The v1.9 edges: `to` alone counts the window back from it; every history body names its `series`; a currency that ended (`fx.until`) or whose rates pause more than 7 days (`fx.left_out`) leaves those points out; a refused workbook is not fetched again for 6 hours; kept FX history is fetched whole weekly; `Last-Modified` is the newest data time in an answer; `/api/health` answers 200 `degraded` with the store down; `/mcp` refuses an over-limit client before reading its body; widgets in sandboxed frames and pages restored by Back stay live; every cache of converted history shares one byte budget (`SERIES_CACHE_MB`, default 128, least recently used first), so no mix of requests grows an instance without bound. ' +
      "Alerts are updated by compare-and-set, so a delivery finishing after a DELETE never brings an alert back; the `/status` page shows the alerts' counts. " +
      "`npm start` holds V8's young generation to 32 MiB (`--max-semi-space-size=16`) and collects its old generation when it has doubled (`--heap-growing-percent=100`): 60–100 and another 45–75 MiB less memory under load, at the same throughput. " +
      "A converted history series is held at about half the memory it took (197 bytes a point instead of 375); `SERIES_CACHE_MB` now bounds the memory the history caches add, the collector's room included (they keep alive a quarter of it), and `/metrics` says what they hold (`goldapi_series_cache_bytes`).",
  ],
  [
    'v1.9',
    '2026-11',
    "The past in any currency and unit: `history` takes `currency` (every code spot accepts that the historical rate source covers; another is a 400 listing those it does) and `unit` on every series, each point converted at the central-bank reference rate of its own date through Frankfurter v2 (`FX_HISTORY_API_URL`; `fx` on the point, `fx_d` when the rate is from an earlier day, `fx: {source, from}` on the body; never today's rate for a past date), fetched per currency as one range and then only the new days, kept in the store and shared; a failing rate source leaves USD untouched and makes a converted answer `stale` from what is kept, or 503 when nothing was. " +
      "`series=futures` holds every daily GC=F bar the chart upstream has (from 2000-08-30; 5 years unless `range` or `from` reach back); `series=monthly` serves the World Bank's monthly averages (Pink Sheet, CC BY 4.0) of gold, silver and platinum since 1960-01, fetched at most daily and shared through the store, with a bundled snapshot that answers `stale` whenever the workbook has not. " +
      'Windows: `from`, `to`, `range`, `group=week|month`, and `date=` now answers the last point on or before the date with `requested_date` (404 only before the first point); every answer carries `period` (first, last, change, change %, high, low). CSV takes the same parameters; `get_gold_history` takes them all and names series, source, currency, unit and FX date. ' +
      'The chart widget and the landing chart draw in the asked currency and unit, gain `MAX` (the monthly series since 1960, labelled), ask only for the window they draw, space points by time so a hole shows as a hole, and decide once on the server whether the spot bars cover a window; the landing chart takes a currency and a unit (selects, or `?currency=` and `?unit=`); the MCP chart view names its instrument and gains `MAX`, which asks `get_gold_history` for the monthly series through the host. ' +
      "Status and operations: every upstream attempt is recorded (outcome, kind, latency, per minute, 7 days, shared by instances); `GET /api/v1/status`, the `/status` page and the MCP tool `get_data_status` show each source's state, availability and latency, how far the two live sources stood apart, and the record per metal; `GET /api/health` for load balancers; Prometheus metrics at `/metrics` behind `METRICS_TOKEN`. " +
      "The v1.8 edges: the MCP limit counts every JSON-RPC message (a batch as its size, refused whole past the limit; a batch from a 2025-06-18 or later client is -32600); a store outage inside a tool is its unavailable answer; a price is folded into the session it was observed in, once across instances; the cron route waits for every metal and frees a failed one's bucket; widget pages and docs take their validators from the data they show, and the landing and docs are cacheable (`CDN-Cache-Control` with `stale-while-revalidate`, 304); the stream sends a `heartbeat` event, a widget that hears nothing for two heartbeats polls, and the widgets of one page share one stream; an `npm start` instance whose 5 s stop grace runs out with connections still open says so in its log.",
  ],
  [
    'v1.8',
    '2026-11',
    'The daily spot record survives serverless: every write of a fold, closing FX table, trim and intraday point finishes before the cron route answers, or is registered with the platform (`waitUntil`) by a request that observed a new price; a failed write is retried by the next request serving that price; a closing FX table is replaced only by a newer one. ' +
      "`change` converts the price and the previous close with one FX table: the close's own (`fx_basis: close`) only while a fresh table is in force, else both at the table in force (`current`); `change` is the shown price minus the shown `previous_close`, exactly, and halves round away from zero for negative figures too. " +
      'The bars behind a change are held per session, so the first prices after 18:00 never see the previous session as the current one; a failed store read keeps the bars held. ' +
      '`history?series=spot` points carry `final` (false for the session in progress) and `n` (prices folded; null when imported); its CSV adds `final,n`. ' +
      "`npm run import-daily` reads the files operators hold (header names in any case and order, `date` or `time`, extra columns such as volume or Adj Close ignored, Yahoo's `null` rows skipped), refuses a date after the current session or older than the 10 years kept and a missing price column by name, writes the file whole or not at all, and counts the bars written and the recorded bars kept. " +
      "MCP: the rate limit counts the last `X-Forwarded-For` hop behind `TRUST_PROXY=1` and the platform's address on Vercel (IPv6 per /64); every answer carries `RateLimit-Policy` and `RateLimit`, a 429 `Retry-After` too; an over-deep or overlong tool argument is refused by name instead of an internal failure; an aborted upload is logged as such. " +
      'Store: the embedded store waits for a file another process holds at start-up (`busy_timeout` first), and one that still cannot open runs on memory, tries the file again in the background and returns to it without a restart; a command KV refuses (a script error, a key of the wrong type) is logged as a defect and no longer marks KV unavailable; `engines` names Node 22.13 (23.4 on the 23 line), the first releases that load `node:sqlite` without a flag. ' +
      'The response cache retries a background refresh that failed, keeping the stale copy meanwhile; its memo of negotiated encodings is bounded. ' +
      "Conditional requests: every cacheable 200 (REST JSON and CSV, OpenAPI, `llms.txt`, widget pages) carries a weak `ETag` (what only says when the answer was made does not change it) and, on data answers, `Last-Modified`; `If-None-Match` (or `If-Modified-Since`) gets `304` with no body and the same caching headers while the data stands, answered by `npm start`'s response cache from its stored copy; errors and `no-store` answers carry no validator. " +
      "Live prices pushed, keyless: `GET /api/v1/stream` is a Server-Sent Events stream (CORS open, `no-store, no-transform`) that sends `retry: 5000` and the current state at once, then a `price` event whenever a metal's served price or a data state changes: every metal in the `currency` and `unit` asked, rounded as spot, with bid and ask, `change_pct`, `market`, `data_state` and `updated_at`; stale is the last real price flagged `stale`, never seen is null. `id` is the time of the newest price, a reconnect gets the current state at once, a quiet stream gets a heartbeat comment every 15 s, and each stream ends after `STREAM_MAX_S` (280 s on Vercel, an hour elsewhere), or when an `npm start` instance stops, so EventSource reconnects. One timer per instance reads the served price for every stream, so a thousand viewers cost the upstreams what one does; `STREAM_MAX_CLIENTS` (2,000) answers 503 with `Retry-After`, `STREAM=off` turns it off. The price and converter widgets, the chart's 1D line and the landing page follow it and fall back to polling by themselves; `live=0` polls instead. " +
      "MCP Apps (`io.modelcontextprotocol/ui`): `/mcp` serves `ui://gold/price` and `ui://gold/chart` (`text/html;profile=mcp-app`) in both protocol eras; `get_gold_price` names the first, `get_gold_history`, `get_gold_intraday` and `compare_gold_to_asset` the second, so a host that renders MCP Apps draws the result as the widgets do, in the host's theme and language, with range buttons that call the tool again through the host; each view is one self-contained document that loads nothing from any origin. Hosts without the extension see the same text and `structuredContent` as before. " +
      "`history?series=spot` takes `symbol` (`xau` by default, `xag`, `xpt`, `xpd`): every metal's daily spot bars, the body's `symbol` naming the metal (`XAGUSD`, `XPTUSD`, `XPDUSD`); the futures series is COMEX gold alone (another `symbol` with it is a 400); `get_gold_history` takes `symbol` for the spot series. Each instance holds each metal's series and reads it again only when a bar changes (a version every fold, import and trim moves in the store); statistics, JSON and ETag are made once per version, `date=` is a lookup, and KV reads a series in one round trip. " +
      "Every chart names its instrument: the chart widget's line says whether it is spot recorded every 2 minutes (1D, now for all four metals), the daily spot bars (where they reach back over the range) or COMEX futures (not spot), in its eleven languages, and the landing chart's caption does the same; the platinum and palladium widgets headline their spot price. " +
      '`lib/` is laid out by capability, its import directions enforced by lint.',
  ],
  [
    'v1.7',
    '2026-11',
    "Runs on Node 24 LTS (any Node from 22.12); the embedded store uses Node's own SQLite (`node:sqlite`), with no native addon to build. " +
      'A store that cannot be used (an unusable `DATA_DIR`, named at start-up; a full disk) is logged once and the service answers from memory, as with KV down; `debug=1` says `embedded-degraded`. ' +
      'OpenAPI: clean in Redocly (recommended) and Spectral (`spectral:oas`); `security: []`, tag descriptions and a contact; `HEAD` documented; list values in any letter case and empty values documented as accepted; nested objects named (`GoldPrice`, `KaratPrices`, `GoldSource`, `IntradayPoint`, `HistoryDay`, `HistoryRanges`, `PriceRange`, `ChartBar`, `SpotDebug`); the error schema is `ErrorBody` (was `Error`); CSV on paths of their own, `/api/v1/history.csv`, `/api/v1/intraday.csv` and `/api/v1/chart.csv` (the answer of `format=csv`, which stays), each an operation whose answer generated clients type as a string (`getHistoryCsv`, …). ' +
      'Pages and widgets meet WCAG 2.2 AA contrast in light and dark; widget pages say `noindex` and carry a description; the landing page loads its chart only when the chart is about to be seen. ' +
      "The landing page, the docs and the 404 page ship no framework code: HTML and CSS, plus a small script of their own where a page needs one (the live price and chart, the widget builder); the landing's live price, like the widgets', asks nothing while its tab is hidden; unknown addresses get the site's own 404 page. " +
      'The chart widget draws its real points at once as a light SVG line with the high, the low and the first and last times; the chart library (crosshair, axes) starts when a pointer or keyboard focus comes to it; a range picked while an answer is on its way is no longer lost, and the refresh follows the range shown (2 minutes on 1D, 5 on the longer ones). ' +
      "`embed.js` holds a widget's place at its height and makes its frame only when it comes near the viewport (it made an empty frame at once before); the widget examples on the docs are embedded with it. " +
      "MCP: `/mcp` serves the stateless 2026-07-28 protocol (no `initialize`; `server/discover`; the protocol version and client capabilities in each request's `_meta` with the `Mcp-Method`/`Mcp-Name` headers; `ttlMs` and `cacheScope: public` on `tools/list` and `server/discover`) beside 2024-10-07 to 2025-11-25 on the same URL, with the same tools, answers, `no-store` and 120/min limit (one count per request whichever era), through the official SDK's 2.x server package. " +
      'Protocol errors as the specification says: malformed params of any method, `initialize` included, and an unknown tool are JSON-RPC -32602 with one short sentence (no validation dump); a bad argument value is an `isError` result in one wording naming the argument and the valid values, or saying it is required ("Invalid hours: abc", "symbol is required", where it used to say "Invalid hours: null" or "Invalid symbol: ."). ' +
      'Tool input schemas use only JSON Schema 2020-12 keywords (`examples`), so strict validators accept them. `server.json` for the MCP registry. The official MCP conformance suite runs in the tests. ' +
      "Platinum and palladium: spot adds `platinum_usd_oz`, `palladium_usd_oz` (null when unavailable), `platinum_source`, `palladium_source`, `groups.platinum` and `groups.palladium`, each from the same two cross-checked live sources as gold (gold-api.com `/price/XPT`, `/price/XPD`; the Swissquote `XPT/USD`, `XPD/USD` quotes) with their own bounds (50 to 50,000 USD/oz), jump rule and last real value; their outage never changes gold's state or the HTTP status. " +
      'Intraday `symbol` `xpt` and `xpd`, recorded like `xau`. get_gold_price returns the four metals. ' +
      '`unit` also takes `tola` (11.6638038 g), `tael` (37.429 g, Hong Kong) and `baht` (15.244 g, Thai bullion), reported as given in `xau.unit`, 2 decimals, karats following; one unit list for REST, MCP, widgets, OpenAPI and docs. ' +
      'The price and converter widgets take `metal` (gold, silver, platinum, palladium), with the new words in all eleven languages; the widget builder offers metals and the new units. ' +
      'How the price moves, from spot only: the service keeps a daily spot bar per metal and trading session (open, high, low, close, count and the FX table at the close), folded from every fresh price it serves and kept 10 years in the store (atomic in KV across instances). ' +
      'Spot and get_gold_price gain `change` (gold), `silver_change`, `platinum_change` and `palladium_change`: the session date, open, high, low, previous close and its date, change and percent in the requested currency and unit, with `fx_basis`; `state: unavailable` with nulls until the deployment has a bar before the current session. ' +
      '`history?series=spot` serves the bars (`{d, o, c, h, l, origin}`, CSV `date,open,high,low,close,origin`) with the same statistics; `date=YYYY-MM-DD` on both series (404 when absent); get_gold_history takes `series` and `date`. ' +
      "`npm run import-daily -- --symbol xau FILE.csv` loads an operator's own daily bars (never over a recorded one). " +
      'The price widget and the landing page show the spot change since the previous close with its sign and arrow; the futures-based "on the day" figure is gone.',
  ],
  [
    'v1.6',
    '2026-11',
    'Spot from two independent live sources (gold-api.com, then the Swissquote bid/ask mid), so one source down no longer makes spot stale; `sources`, `cross_check`, `bid_usd_oz`, `ask_usd_oz`, `quote_source`; `market` (open or closed, why, next change) on spot and in get_gold_price; the intraday recorder pauses while the market is closed; the price widget shows when the market is closed and when it reopens. ' +
      'Spot `karats` (24k, 22k, 21k, 18k, 14k, 10k, 9k in the asked currency and unit); `format=csv` on history, intraday and chart, with `X-Data-State` and `X-Updated-At` headers. ' +
      'Cacheable answers carry `CDN-Cache-Control: max-age=N, stale-while-revalidate=N` beside `Cache-Control`, from one table; `npm start` serves through a shared response cache (`X-Cache`, `Age`; `RESPONSE_CACHE=off`, `RESPONSE_CACHE_MB`); a cold instance under a burst answers with real prices; MCP answers say `no-store`. ' +
      'Every path answers every method without a 5xx (405 with `Allow`, REST with `data_state`); unknown paths under `/api/` answer 404 JSON; request bodies are read only by POST /mcp; `PUBLIC_URL` and `TRUST_PROXY` decide the origin of every link, and forwarded headers count only behind a trusted proxy. ' +
      'MCP: every tool declares readOnlyHint, destructiveHint false, idempotentHint, openWorldHint and a title; schemas are inline (no `$ref`) for clients that need it; `initialize` advertises `tools.listChanged: false` (the list changes only with a redeploy); malformed tools/call params answer -32602; bad argument values name the valid values (a bad unit on REST spot now carries `valid` too). ' +
      'Widgets speak the reader\'s language (en, de, fr, es, it, pt, tr, ar right to left, hi, zh, ja); the converter offers 24k to 9k; `/favicon.ico`; the landing chart says "History unavailable" with the reason',
  ],
  ['Platform', '2026-07', 'Embeddable widget modules (price, chart, converter) built on this API'],
  ['v1.5', '2026-07', '`compact=1` on spot; OpenAPI document; plain-text map (llms.txt); intraday endpoint; freshness-validation rules'],
  ['v1.4', '2026-07', '`data_state` object on every response including 503; `stale` and `price_as_of` retained'],
  ['v1.3', '2026-07', 'Data-state contract (fresh, stale, unavailable); `fx_stale`; `stats_as_of`; `debug=1`'],
  ['v1.2', '2026-07', 'Outage behaviour: last known real price with `stale` and `price_as_of`, or 503; simulated fallback prices removed'],
  [
    'v1.1',
    '2026-07',
    'Silver and ratio; tokenized gold; Bitcoin-vs-gold fields; market cap, supply, reserve statistics; history gains daily high/low, ranges, YTD and 1-year returns; history source changed',
  ],
  ['v1.0', '2025', 'Initial release: spot with currency and unit, daily history, reserves'],
];

export const config: PageConfig = { unstable_runtimeJS: false };
// Rendered per request so it answers with the docs' caching headers and validators (site/cacheable.ts).
export const getServerSideProps = originProps;

export default function Changelog() {
  return (
    <>
      <PageHead title="Changelog" />
      <h1>Changelog</h1>
      <p className="lead">
        The API lives under <code>/api/v1/</code>. Within v1 changes are additive only: new fields may appear, existing fields are never renamed or
        removed. A breaking change gets a new version path and an entry here. Current version: {API_VERSION}.
      </p>
      <table>
        <thead>
          <tr>
            <th>version</th>
            <th>date</th>
            <th>changes</th>
          </tr>
        </thead>
        <tbody>
          {CHANGES.map(([v, d, c]) => (
            <tr key={v}>
              <td>{v}</td>
              <td>{d}</td>
              <td>{c}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
