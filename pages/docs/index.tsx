import type { PageConfig } from 'next';
import { Code } from '@/site/code';
import { PageHead } from '@/site/layout';
import { originProps, type OriginProps } from '@/site/page-props';

export const config: PageConfig = { unstable_runtimeJS: false };
export const getServerSideProps = originProps;

export default function Docs({ origin }: OriginProps) {
  return (
    <>
      <PageHead title="Getting started" />
      <h1>Getting started</h1>
      <p className="lead">No key, no account, no SDK. Every endpoint is a GET that answers JSON, with CORS open so a browser can call it directly.</p>
      <ul className="toc">
        <li>
          <a href="#first">First request</a>
        </li>
        <li>
          <a href="#karats">Prices by karat</a>
        </li>
        <li>
          <a href="#spreadsheets">Spreadsheets (CSV)</a>
        </li>
        <li>
          <a href="#freshness">Freshness</a>
        </li>
        <li>
          <a href="#errors">Errors</a>
        </li>
        <li>
          <a href="#caching">Caching and fair use</a>
        </li>
      </ul>

      <p>
        For people rather than programs, the price pages at{' '}
        <code>
          /{'{metal}'}/{'{currency}'}/{'{unit}'}
        </code>{' '}
        (for example <a href="/gold/eur/gram">/gold/eur/gram</a>, <a href="/silver/usd/oz">/silver/usd/oz</a>) show the price as spot serves it with
        its freshness, the day change, the session, the four metals and gold by karat, a chart and what your metal is worth (a weight at a purity or a
        bullion coin, valued as <code>/api/v1/value</code> values it), server-rendered and live. <code>?lang=</code> picks one of eleven languages,{' '}
        <code>?range=</code> the chart&apos;s range (<code>1d</code> … <code>max</code>) and <code>?date=YYYY-MM-DD</code> the value on a day and the
        change since.
      </p>

      <h2 id="first">First request</h2>
      <Code title="curl">{`curl '${origin}/api/v1/spot?currency=EUR&unit=gram&compact=1'`}</Code>
      <Code title="JavaScript (browser or Node 18+)">{`const res = await fetch('${origin}/api/v1/spot?currency=EUR&unit=gram&compact=1');
const spot = await res.json();
if (spot.data_state.status === 'unavailable') {
  console.log('No gold price right now:', spot.error);
} else {
  const note = spot.stale ? \` (stale, ${'${'}spot.data_state.age_seconds} s old)\` : '';
  console.log(\`\${spot.xau.price} \${spot.xau.currency} per gram\${note}\`);
}`}</Code>
      <p>
        The <a href="/docs/api">API reference</a> lists every endpoint, parameter and error; the same contract is machine-readable at{' '}
        <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1), and <a href="/llms.txt">/llms.txt</a> maps the site for language models.
      </p>

      <h2 id="karats">Prices by karat</h2>
      <p>
        Spot carries <code>karats</code>: the price of 24k, 22k, 21k, 18k, 14k, 10k and 9k gold (purity karat ÷ 24) in the currency and unit you ask
        for, rounded as <code>xau.price</code>. 22k per gram in Indian rupees:
      </p>
      <Code title="curl">{`curl '${origin}/api/v1/spot?currency=INR&unit=gram&compact=1'   # then read karats["22k"]`}</Code>

      <h2 id="spreadsheets">Spreadsheets (CSV)</h2>
      <p>
        History, intraday and chart answer CSV at their <code>.csv</code> paths (<code>/api/v1/history.csv</code>, <code>/api/v1/intraday.csv</code>,{' '}
        <code>/api/v1/chart.csv</code>, which generated clients type as text) or with <code>format=csv</code>: a header row and one row per point,
        times in ISO 8601 UTC. The freshness travels in the <code>X-Data-State</code> and <code>X-Updated-At</code> headers; errors stay JSON. In
        Google Sheets, five years of daily gold in one formula:
      </p>
      <Code title="Google Sheets">{`=IMPORTDATA("${origin}/api/v1/history.csv")`}</Code>
      <p>
        Columns: history <code>date,close,high,low</code>; intraday <code>time,price</code>; chart <code>time,open,high,low,close,volume</code>. In
        Excel, use Data → From Web with the same address.
      </p>
      <p>
        One price in one cell: <code>/api/v1/price.txt</code> answers the number alone, its freshness in the same headers.{' '}
        <a href="/docs/recipes">Recipes</a> for Google Sheets, Excel, Home Assistant, Portfolio Performance, Grafana and the shell.
      </p>
      <Code title="Google Sheets: gold in euros per gram">{`=IMPORTDATA("${origin}/api/v1/price.txt?currency=EUR&unit=gram")`}</Code>

      <h2 id="freshness">Freshness: fresh, stale, unavailable</h2>
      <p>
        Every response carries <code>data_state</code> (<code>status</code>, <code>as_of</code>, <code>source</code>, <code>age_seconds</code>) and{' '}
        <code>updated_at</code>, the time the response was made.
      </p>
      <table>
        <thead>
          <tr>
            <th>status</th>
            <th>meaning</th>
            <th>HTTP</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>fresh</code>
            </td>
            <td>From the upstream on this request, or within its cache time (spot 30 s, tokens 60 s, FX 12 h, history 6 h).</td>
            <td>200</td>
          </tr>
          <tr>
            <td>
              <code>stale</code>
            </td>
            <td>
              The upstream is down; this is the last real value seen, with <code>as_of</code> and <code>age_seconds</code>. On spot,{' '}
              <code>stale: true</code> and <code>price_as_of</code>.
            </td>
            <td>200</td>
          </tr>
          <tr>
            <td>
              <code>unavailable</code>
            </td>
            <td>The upstream is down and no real value has been seen. No number is invented.</td>
            <td>503 on spot, chart and history</td>
          </tr>
        </tbody>
      </table>
      <p>
        A value that fails validation (wrong shape, not a positive finite number, or a gold price that jumps more than 25% within 10 minutes) is
        treated as the upstream being down. Spot reports each group separately in <code>groups</code> (gold, silver, platinum, palladium, FX, tokens):
        any of them may be unavailable while gold is fresh. When the live FX feed has never answered, a real recorded table bundled with the release
        is used and <code>fx_stale</code> is true. Staleness has no limit: apply your own maximum age using <code>price_as_of</code>.
      </p>
      <p>
        Every metal has two live sources (gold-api.com, then the swissquote.com bid/ask mid): spot stays <code>fresh</code> while either answers, and{' '}
        <code>price_source</code> names the one served; only with both down is it <code>stale</code>.{' '}
        <a href="/docs/data#two-sources">How they are chosen and cross-checked</a>.
      </p>
      <p>
        A quiet price is not a stale one: spot gold does not trade on weekends (Friday 17:00 to Sunday 18:00 New York time), in the daily break (17:00
        to 18:00 Monday to Thursday) or on 25 December, 1 January and Good Friday. Spot&apos;s <code>market</code> says whether it is open, why not,
        and <code>next_change</code> (the next open or close, UTC). While closed the price stays <code>fresh</code> and does not move, and the
        intraday series pauses without turning stale. <a href="/docs/data#market-hours">Market hours</a>.
      </p>

      <h2 id="alerts">Price alerts</h2>
      <p>
        <code>POST /api/v1/alerts</code> asks, without a key, for a webhook call or a browser notification when a price crosses a level in your
        currency and unit: <a href="/docs/alerts">Price alerts</a>.
      </p>

      <h2 id="errors">Errors</h2>
      <p>
        Errors are JSON with <code>error</code> (words), <code>data_state</code> and <code>updated_at</code>; an unknown currency adds{' '}
        <code>supported</code>, other invalid values add <code>valid</code>. 400 bad input, 404 a path under <code>/api/</code> that does not exist,
        405 a method other than GET, HEAD or OPTIONS (with <code>Allow</code>; the price alerts also take POST and DELETE), 414 a query string over
        2,048 characters, 503 no real price yet. Unknown query parameters are ignored, so a throwaway parameter bypasses intermediary caches.
      </p>

      <h2 id="caching">Caching and fair use</h2>
      <p>
        Responses carry <code>Cache-Control</code> matching their data (spot 30 s) for browsers, and <code>CDN-Cache-Control</code> with the same
        lifetime plus <code>stale-while-revalidate</code> for a CDN or proxy in front. A cached copy can read <code>fresh</code>:{' '}
        <code>data_state</code> describes the moment the answer was made, so compare <code>updated_at</code> with the current time. Cache at least 30
        seconds on your side. There is no hard rate limit on REST; above 10,000 requests a day, please get in touch. The MCP endpoint allows 120
        requests per minute per IP; price alerts, 10 created per hour per IP. Responses are compressed (brotli or gzip) when your client asks.
      </p>
    </>
  );
}
