import { listed, METALS, OTHER_METALS } from '../reference/metals';
import { OPERATIONS, STREAM_OPERATION } from './openapi';
import { UNIT_LIST, type UnitEntry } from '../reference/units';

// /llms.txt: a plain-text map of the site and API for language models (llmstxt.org conventions:
// a title, a one-paragraph summary, then sections of links with one-line descriptions).

export function llmsText(origin: string): string {
  const api = OPERATIONS.map(
    (op) => `- [GET ${op.path}](${origin}${op.path}${op.linkQuery ? `?${op.linkQuery}` : ''}): ${op.summary}. ${firstSentence(op.description)}`,
  );
  return [
    '# Gold API',
    '',
    `> Free, keyless gold market data that is honest about freshness: live spot gold in 160+ currencies and ${UNIT_LIST.length} units ` +
      `(${UNIT_LIST.map((u: UnitEntry) => (u.note ? `${u.name}, ${u.note}` : u.name)).join('; ')}), ` +
      `${listed(OTHER_METALS.map((m) => m.name.toLowerCase()))}, tokenized gold and Bitcoin versus gold, a first-party 2-minute intraday series, daily history since 2000 and monthly since 1960 in any currency and unit, ` +
      'multi-asset charts and central-bank gold reserves. Each metal comes from two independent live sources (gold-api.com, else the ' +
      'swissquote.com bid/ask mid), cross-checked, with bid/ask and the market hours (`market`: closed on weekends, in the daily break ' +
      'and on holidays, with the next open or close). A price is never simulated: when both sources are down the last real price ' +
      'is served flagged `stale`, and with none the answer is `unavailable` (HTTP 503). Every response carries `data_state` and `updated_at`.',
    '',
    'Prices are indicative mid-market reference rates provided as-is, not tradable quotes. No API key, GET only, CORS open; cache responses at least 30 seconds, then revalidate with If-None-Match (the ETag): an unchanged answer is a 304 with no body.',
    '',
    'Spot also gives the price per karat (24k to 9k) in the currency and unit asked, and `change` (gold), `silver_change`, `platinum_change` and `palladium_change`: the move since the ' +
      "previous session's close with the session's open, high and low, in the currency and unit asked, computed only from the daily spot bars " +
      'this service records from the prices it serves (never from futures); `state` `unavailable` with null numbers until the deployment has ' +
      "a bar before the current session. Each change says why the price moved: `from_metal` `{amount, pct}` is the metal's own move in US dollars " +
      "(at the rate of the previous close), `from_currency` the currency's move against the dollar; they add up to `change` and `change_pct` exactly " +
      "(in USD all of it is the metal's; null in another currency when the rate at that close is not known, `fx_basis` `current`). `history?series=spot` serves those bars (open, high, low, close, origin) for every metal: `symbol` " +
      `${listed(METALS.map((m) => `\`${m.intraday}\` ${m.name.toLowerCase()}`))} (futures are gold alone); \`date=YYYY-MM-DD\` picks one day. ` +
      'History, intraday and chart answer CSV at `/api/v1/history.csv`, `/api/v1/intraday.csv` and `/api/v1/chart.csv` (the same parameters), or with `format=csv` ' +
      `(for example \`=IMPORTDATA("${origin}/api/v1/history.csv")\` in Google Sheets).`,
    '',
    `One number as text for a spreadsheet cell, Home Assistant or a shell: \`${origin}/api/v1/price.txt?metal=gold&currency=EUR&unit=gram&karat=18\` answers one number and a newline ` +
      "(spot's own figure and rounding; `metal` gold, silver, platinum or palladium; `karat` gold only; `fineness` any metal, a fraction `0.925` or parts per thousand `925`), the state in the `X-Data-State` and `X-Updated-At` headers " +
      `(stale is the last real price, still 200; never seen is 503 \`unavailable\`). Recipes that work as written (Google Sheets, Excel, Home Assistant, Portfolio Performance, Grafana, curl and jq): ${origin}/docs/recipes.`,
    '',
    `What metal people hold is worth: \`${origin}/api/v1/value?weight=12&karat=14&currency=EUR\` (a 14k chain of 12 g), \`?item=krugerrand&currency=ZAR\`, ` +
      '`?metal=silver&item=us-90-dime&qty=10`, `?weight=1&unit=luong&currency=VND`: `weight` in `unit` (default gram) at a purity (`karat` for gold, `fineness` for any metal: ' +
      '`0.925` or `925`, 1 is pure), or `item` (a coin of `/api/v1/items`, valued by the fine metal its mint states) with `qty`. `melt_value` = fine troy ounces × spot × the rate spot uses ' +
      "(2 decimals; spot's own per-unit figure is in `price`); `quote` (a price asked or offered, in the currency) adds `premium` and `premium_pct`. It is the metal's value, not a shop's price: " +
      'dealers and jewellers sell above it and buy below it, and making charges and taxes are not in it.',
    '',
    'The past in any currency and unit: `/api/v1/history` takes `currency` and `unit` on every series and converts each point at the central-bank ' +
      "reference rate of its own date (Frankfurter; `fx` on each point, `fx_d` when the rate is from an earlier day; never today's rate for a past date, never a rate more than 7 days older than the point: a gap's points are left out, counted in `fx.left_out`, and a currency that ended says its last rate in `fx.until`). " +
      'Four series, each named in `source`: `series=futures` (default) COMEX GC=F daily since 2000 (5 years unless `range=max` or `from`), `series=spot` the ' +
      "service's own daily bars, `series=monthly` the World Bank's monthly averages of gold, silver and platinum since 1960 (CC BY 4.0, month's average rate). " +
      "`series=london` this service's own spot at a London time of day, one value per London business day: `time` `am` (10:30) or `pm` (15:00, default) " +
      'for gold, `noon` (12:00) for silver, `am` (09:45) or `pm` (14:00, default) for platinum and palladium, the first fresh price taken at or after that ' +
      "minute within 5 minutes, points `{d, p, t}` (t: when it was taken); not the LBMA Gold or Silver Price nor the LME's prices. " +
      'Windows: `range` (1w to 10y, ytd, max) or `from`/`to`, `group=week|month|year` (a year: first, last, high, low, `avg` of the closes and `change`/`change_pct` from the ' +
      "year before's last close; on the monthly series averages of monthly averages, `bars_of` says so), and `date=YYYY-MM-DD` for the last point on or before a date (with " +
      `\`requested_date\`); every answer has \`period\` (first, last, change, change %, high, low). Example: \`${origin}/api/v1/history?currency=INR&unit=tola&date=2026-03-06\`.`,
    '',
    '## Price pages',
    '',
    `- [Gold in euros per gram](${origin}/gold/eur/gram): the pages for people, at \`/{metal}/{currency}/{unit}\` (gold, silver, platinum or palladium; any currency spot accepts, in lower case; a unit as spot), ` +
      "server-rendered and readable without scripts: the price exactly as spot serves it with its freshness and time, the day change and previous close, the session's high and low, gold's bid and ask, " +
      'the market hours, the four metals and gold by karat in the same currency and unit, a chart from 1 day to the monthly averages since 1960 that names the series each range draws, ' +
      "the day change's split in words (the metal's own move in US dollars and the currency's against the dollar, from spot's `from_metal` and `from_currency`), " +
      "a performance table (1 week to since the start, each `/api/v1/history`'s `period.change_pct` for the same `range` over the series the chart draws, named) " +
      "and a table of years (history's `group=year`: daily closes since 2000 where a daily series has the whole year, the World Bank's monthly averages before, labelled), " +
      "and what your metal is worth: a weight in any unit at a karat or fineness, or a bullion coin with a count, valued as `/api/v1/value` values it (its metal value, not a shop's price), " +
      "an optional quoted price compared with it in words, what an amount of money buys, the metal value of 1 g to 1 kg (and of the page's local unit) and, on gold and silver pages, of each coin; " +
      "the form takes value's parameters (`weight`, `unit`, `karat` or `fineness`, `item`, `qty`, `quote`) and `money`, and works without scripts; " +
      "the figures follow the price stream. `/` and `/{metal}` answer in the visitor's currency and unit. `?lang=` picks the language (en, de, fr, es, it, pt, tr, ar, hi, zh, ja), " +
      '`?range=` the range the chart opens on (1d, 5d, 1m, 6m, 1y, 5y, 10y, max), `?date=YYYY-MM-DD` the value on that day (the last point on or before it, naming its series) and the change since. ' +
      `The developer home is [${origin}/developers](${origin}/developers).`,
    '',
    '## REST API',
    '',
    ...api,
    // The link is to its documentation: the stream itself never ends.
    `- [GET ${STREAM_OPERATION.path}](${origin}/docs/api#${STREAM_OPERATION.operationId}): ${STREAM_OPERATION.summary}, keyless. ` +
      `\`${origin}${STREAM_OPERATION.path}?currency=EUR&unit=gram\` (\`curl -N\`, or \`new EventSource(url)\` in a browser): a \`price\` event at once and on every change ` +
      '(every metal in the currency and unit asked, rounded as spot, with `change_pct`, each metal’s change split into `from_metal` and `from_currency`, `market`, `data_state`, and `fx_rate` with `fx_stale` as spot says them), `id` the time of the newest price, a `heartbeat` event every 15 s when quiet (none for 30 s: a proxy holds the stream back, poll spot); ' +
      'it ends every few minutes and EventSource reconnects. Stale is the last real price flagged `stale`, never seen is null.',
    `- [POST ${origin}/api/v1/alerts](${origin}/docs/alerts): keyless price alerts, the one REST operation that writes: JSON \`{metal, currency, unit, above | below | move_pct, repeat?, webhook: {url}}\` → 201 \`{id, status, manage_url, expires_at, secret}\`; the webhook (https, public address) answers an \`alert.verification\` challenge, then gets one \`alert.triggered\` event per crossing of the level between two fresh readings, signed per Standard Webhooks (a crossing counts only between readings taken after the alert was armed; an event may come twice with one \`webhook-id\`: deduplicate on it); \`manage_url\` GET shows the alert and its deliveries, DELETE removes it; 10 creations per client per hour, refused ones counted. \`push: {endpoint, keys}\` (a browser's PushSubscription, subscribed with the key of \`GET ${origin}/api/v1/alerts/push-key\`) instead of \`webhook\` sends Web Push notifications (Declarative Web Push messages)`,
    `- [OpenAPI 3.1 document](${origin}/api/openapi.json): the machine-readable contract of every endpoint, parameter and error`,
    '',
    '## MCP (tool protocol)',
    '',
    `- [POST ${origin}/mcp](${origin}/docs/mcp): stateless streamable-HTTP MCP endpoint, JSON-RPC 2.0 over POST, no session; seven read-only tools: get_gold_price, get_gold_history, get_gold_intraday, get_central_bank_reserves, compare_gold_to_asset, get_data_status (how the sources and the record have behaved, as /api/v1/status), get_metal_value (what a weight of metal at a purity or a number of bullion coins is worth at spot, and a quote's premium, as /api/v1/value: the metal's value, not a dealer's price); 120 JSON-RPC messages per minute per client, a batch counting as its size (RateLimit headers on every answer); a hosted agent platform's published range (Anthropic's 160.79.104.0/21 by default) shares a pool of its own`,
    '- Protocol versions: 2026-07-28 (stateless: no initialize; each request carries its protocol version and client capabilities in `params._meta`, with the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers; `server/discover` lists what is served) and 2024-10-07 to 2025-11-25 (a request without that `_meta`: `initialize` negotiates the version; `Accept` must list `application/json` and `text/event-stream`). The client picks by what it sends; the official SDK client picks 2026-07-28 with `versionNegotiation: { mode: "auto" }`.',
    '- Errors: malformed params of any method and an unknown tool are JSON-RPC -32602; a bad argument value is a result with `isError: true` naming the argument and its valid values.',
    "- Views (MCP Apps, extension `io.modelcontextprotocol/ui`): `resources/list` and `resources/read` give `ui://gold/price` (named by get_gold_price) and `ui://gold/chart` (get_gold_history, get_gold_intraday, compare_gold_to_asset), mimeType `text/html;profile=mcp-app`, each named in the tool's `_meta.ui.resourceUri`. A host that renders MCP Apps draws the result inside the conversation (price with its change, or the series with its high and low and range buttons); any other host gets the same text and `structuredContent`.",
    '',
    '## Widgets',
    '',
    `- [Price widget](${origin}/widgets/price): live ${listed(
      METALS.map((m) => m.id),
      'or',
    )} price (\`metal\`, gold by default) with its spot change since the previous close and freshness, by iframe or one script tag`,
    `- [Chart widget](${origin}/widgets/chart): gold or another asset over 1 day to 5 years`,
    `- [Converter widget](${origin}/widgets/converter): money ↔ weight of any served metal (\`metal\`) at its metal value, any currency, ${UNIT_LIST.map((u) => u.id).join('/')}, a purity (\`fineness\` for any metal, \`karat\` for gold); it says the metal value is not a shop's price`,
    `- [Embed script](${origin}/embed.js): \`<script src="${origin}/embed.js" data-widget="price" data-currency="EUR"></script>\``,
    '- The price and converter widgets, the chart’s 1D range of each metal, and the landing page follow the price stream; `live=0` (`data-live="0"`) polls instead, and a browser without EventSource or a refused stream falls back to polling.',
    '',
    '## Docs',
    '',
    `- [Documentation](${origin}/docs): API reference, freshness rules, data sources`,
    `- [Recipes](${origin}/docs/recipes): the price and the history in Google Sheets, Excel, Home Assistant, Portfolio Performance, Grafana and the shell, each checked against the running service`,
    '',
    '## Status and operations',
    '',
    `- [Status page](${origin}/status): each upstream's state (ok, degraded, down, unused), availability over 24 hours and 7 days, latency, last failure; how far the two live spot sources stood apart; sessions with no daily bar (the same as \`/api/v1/status\`)`,
    `- [GET ${origin}/api/health](${origin}/api/health): for load balancers, 200 \`{status, store, version}\` while the instance can answer (\`store\` is \`embedded\`, \`kv\` or \`redis\`; \`status: "degraded"\`, \`store: "down"\` when its store does not), 503 only when it cannot serve`,
    '- `/metrics`: Prometheus text exposition, only where the operator set METRICS_TOKEN (sent as a Bearer token)',
    '',
  ].join('\n');
}

function firstSentence(text: string): string {
  const end = text.indexOf('. ');
  return end === -1 ? text : text.slice(0, end + 1);
}
