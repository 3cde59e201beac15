// The recipes of /docs/recipes (decisions §30): the price and the history in the tools people already use. Each recipe
// is data: its snippets, and the calls they make with what they read from each answer. The page renders this list and
// tests/unit/docs/recipes.test.ts runs it (every URL answers 200, every field read exists), so the two cannot drift.

/** One request a recipe makes, and what it reads from the answer. */
export interface RecipeCall {
  /** Path and query, after the public origin. */
  path: string;
  /** What the answer is: one number as text (price.txt), CSV with a header row, or JSON. */
  format: 'text' | 'csv' | 'json';
  /** JSON paths (`$.points[*].d`) into a JSON answer, or the CSV columns read; a text answer is read whole. */
  reads: string[];
  /** Response headers the recipe reads. */
  headers?: string[];
}

export interface RecipeSnippet {
  title: string;
  code: string;
}

export interface Recipe {
  id: string;
  title: string;
  /** What it does and what to know, plain text (one paragraph). */
  intro: string;
  snippets: RecipeSnippet[];
  calls: RecipeCall[];
  /** A closing remark, plain text. */
  note?: string;
}

// The calls, named once: the snippets quote them, so what the page shows is what the test asks.
const PRICE_EUR_GRAM: RecipeCall = {
  path: '/api/v1/price.txt?currency=EUR&unit=gram',
  format: 'text',
  reads: [],
  headers: ['X-Data-State', 'X-Updated-At'],
};
const PRICE_INR_22K: RecipeCall = { path: '/api/v1/price.txt?currency=INR&unit=gram&karat=22', format: 'text', reads: [] };
const SILVER_USD_OZ: RecipeCall = { path: '/api/v1/price.txt?metal=silver', format: 'text', reads: [] };
const HISTORY_CSV_EUR: RecipeCall = { path: '/api/v1/history.csv?currency=EUR&range=1y', format: 'csv', reads: ['date', 'close'] };
const HISTORY_EUR: RecipeCall = { path: '/api/v1/history?currency=EUR&range=1y', format: 'json', reads: ['$.points[*].d', '$.points[*].c'] };
const HISTORY_USD: RecipeCall = { path: '/api/v1/history?range=1y', format: 'json', reads: ['$.points[*].d', '$.points[*].c'] };
const SPOT_EUR_GRAM: RecipeCall = {
  path: '/api/v1/spot?currency=EUR&unit=gram&compact=1',
  format: 'json',
  reads: ['$.xau.price', '$.data_state.status', '$.data_state.as_of'],
};

/** `$.points[*].d` → `points` and `d`: the array a path walks and the field it reads of each item. */
function split(path: string): { root: string; field: string } {
  const m = /^\$\.(\w+)\[\*\]\.(\w+)$/.exec(path);
  if (!m) throw new Error(`not an array field path: ${path}`);
  return { root: m[1], field: m[2] };
}

/** The array and the fields a series call reads (every path walks the same array). */
function series(call: RecipeCall): { root: string; fields: string[] } {
  const parts = call.reads.map(split);
  return { root: parts[0].root, fields: parts.map((p) => p.field) };
}

export function recipes(origin: string): Recipe[] {
  const url = (call: RecipeCall) => `${origin}${call.path}`;
  const euHistory = series(HISTORY_EUR);
  const usHistory = series(HISTORY_USD);
  const [date, close] = euHistory.fields;
  return [
    {
      id: 'google-sheets',
      title: 'Google Sheets',
      intro:
        'IMPORTDATA fills a cell with the price, or a range with a CSV history (header row first). Sheets decides when to fetch again. In a spreadsheet ' +
        'whose locale writes decimals with a comma, give the locale of the data as the third argument, so the point in the number is read as a decimal point.',
      snippets: [
        { title: 'Gold in euros per gram, one cell', code: `=IMPORTDATA("${url(PRICE_EUR_GRAM)}")` },
        { title: 'The same in a comma-decimal locale', code: `=IMPORTDATA("${url(PRICE_EUR_GRAM)}", ",", "en_US")` },
        { title: '22-karat gold in rupees per gram', code: `=IMPORTDATA("${url(PRICE_INR_22K)}")` },
        {
          title: `A year of daily closes of COMEX gold futures (GC=F) in euros per ounce (columns ${HISTORY_CSV_EUR.reads.join(', ')}, …)`,
          code: `=IMPORTDATA("${url(HISTORY_CSV_EUR)}")`,
        },
      ],
      calls: [PRICE_EUR_GRAM, PRICE_INR_22K, HISTORY_CSV_EUR],
    },
    {
      id: 'excel',
      title: 'Excel',
      intro:
        'WEBSERVICE (Excel for Windows) reads the price as text; NUMBERVALUE with "." as the decimal separator makes it a number in any locale, and CLEAN ' +
        'drops the closing newline. For the history, Power Query (Data › Get Data › From Other Sources › Blank Query › Advanced Editor) reads the JSON ' +
        `and keeps each point's date (${date}) and close (${close}); Refresh fetches it again.`,
      snippets: [
        { title: 'Gold in euros per gram, one cell', code: `=NUMBERVALUE(CLEAN(WEBSERVICE("${url(PRICE_EUR_GRAM)}")), ".")` },
        {
          title: 'Power Query: a year of daily closes of COMEX gold futures (GC=F) in euros per ounce',
          code: [
            'let',
            `    Source = Json.Document(Web.Contents("${url(HISTORY_EUR)}")),`,
            `    Points = Table.FromRecords(Source[${euHistory.root}], {${euHistory.fields.map((f) => `"${f}"`).join(', ')}}, MissingField.UseNull),`,
            `    Typed = Table.TransformColumnTypes(Points, {{"${date}", type date}, {"${close}", type number}})`,
            'in',
            '    Typed',
          ].join('\n'),
        },
      ],
      calls: [PRICE_EUR_GRAM, HISTORY_EUR],
    },
    {
      id: 'home-assistant',
      title: 'Home Assistant',
      intro:
        'A REST sensor in configuration.yaml. price.txt is the number alone, so the template only makes it a float. The price is cached 30 s at the ' +
        'source, so polling faster gains nothing: a scan_interval of 300 s (never under 60) is plenty. During an outage the sensor keeps ' +
        'the last real price (X-Data-State says stale, which a REST sensor does not see); before any price was seen, it is unavailable.',
      snippets: [
        {
          title: 'configuration.yaml',
          code: [
            'sensor:',
            '  - platform: rest',
            '    name: Gold price',
            '    unique_id: gold_price_eur_gram',
            `    resource: "${url(PRICE_EUR_GRAM)}"`,
            '    unit_of_measurement: "EUR/g"',
            '    state_class: measurement',
            '    scan_interval: 300',
            '    value_template: "{{ value | float }}"',
            '  - platform: rest',
            '    name: Silver price',
            '    unique_id: silver_price_usd_oz',
            `    resource: "${url(SILVER_USD_OZ)}"`,
            '    unit_of_measurement: "USD/ozt"',
            '    state_class: measurement',
            '    scan_interval: 300',
            '    value_template: "{{ value | float }}"',
          ].join('\n'),
        },
      ],
      calls: [PRICE_EUR_GRAM, SILVER_USD_OZ],
    },
    {
      id: 'portfolio-performance',
      title: 'Portfolio Performance',
      intro:
        'For a security that tracks gold (one troy ounce, in euros): in its Historical Quotes, choose the provider JSON and give the feed URL and ' +
        'the paths to the date and the close of each point. Dates are YYYY-MM-DD, which it reads as they are. These are COMEX gold futures closes ' +
        '(the default history series), which trade a little above spot; add series=spot for the daily spot bars this service records.',
      snippets: [
        {
          title: 'Historical Quotes › JSON',
          code: [`Feed URL:       ${url(HISTORY_EUR)}`, `Path to Date:   ${HISTORY_EUR.reads[0]}`, `Path to Close:  ${HISTORY_EUR.reads[1]}`].join(
            '\n',
          ),
        },
      ],
      calls: [HISTORY_EUR],
    },
    {
      id: 'grafana',
      title: 'Grafana',
      intro:
        `With the Infinity data source: type JSON, source URL, the URL below, rows/root "${usHistory.root}", and two columns: "${usHistory.fields[0]}" ` +
        `as a timestamp and "${usHistory.fields[1]}" as a number. A time series panel then draws the daily closes of COMEX gold futures (GC=F, USD per ounce). ` +
        "The query as it sits in the panel's JSON:",
      snippets: [
        {
          title: 'Panel query (Infinity)',
          code: JSON.stringify(
            {
              datasource: { type: 'yesoreyeram-infinity-datasource' },
              type: 'json',
              source: 'url',
              format: 'table',
              url: url(HISTORY_USD),
              root_selector: usHistory.root,
              columns: [
                { selector: usHistory.fields[0], text: 'Date', type: 'timestamp' },
                { selector: usHistory.fields[1], text: 'GC=F close (USD/oz)', type: 'number' },
              ],
            },
            null,
            2,
          ),
        },
      ],
      calls: [HISTORY_USD],
    },
    {
      id: 'shell',
      title: 'curl and jq',
      intro: 'The price alone, its state from the headers, the spot answer picked apart with jq, and a year of closes as CSV lines.',
      snippets: [
        { title: 'The number', code: `curl -s '${url(PRICE_EUR_GRAM)}'` },
        { title: 'Its state and time', code: `curl -sI '${url(PRICE_EUR_GRAM)}' | grep -iE '^(${PRICE_EUR_GRAM.headers!.join('|')}):'` },
        {
          title: 'Price, state and the time of the price from spot',
          code: `curl -s '${url(SPOT_EUR_GRAM)}' | jq '{price: ${jq(SPOT_EUR_GRAM.reads[0])}, state: ${jq(SPOT_EUR_GRAM.reads[1])}, as_of: ${jq(SPOT_EUR_GRAM.reads[2])}}'`,
        },
        {
          title: 'A year of daily closes of COMEX gold futures (GC=F), one line each',
          code: `curl -s '${url(HISTORY_USD)}' | jq -r '.${usHistory.root}[] | [${usHistory.fields.map((f) => `.${f}`).join(', ')}] | @csv'`,
        },
      ],
      calls: [PRICE_EUR_GRAM, SPOT_EUR_GRAM, HISTORY_USD],
    },
  ];
}

/** A plain JSON path (`$.a.b`) as jq writes it (`.a.b`). */
function jq(path: string): string {
  return path.replace(/^\$/, '');
}
