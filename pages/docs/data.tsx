import type { PageConfig } from 'next';
import { COMMON_FINENESS } from '@/lib/reference/fineness';
import { ITEMS, ITEMS_AS_OF } from '@/lib/reference/items';
import { METALS } from '@/lib/reference/metals';
import { UNIT_LIST } from '@/lib/reference/units';
import { PageHead } from '@/site/layout';
import { originProps } from '@/site/page-props';

export const config: PageConfig = { unstable_runtimeJS: false };
// Rendered per request so it answers with the docs' caching headers and validators (site/cacheable.ts).
export const getServerSideProps = originProps;

export default function DataDocs() {
  return (
    <>
      <PageHead title="Data sources and trust" />
      <h1>Data sources and trust rules</h1>
      <h2 id="rules">The rules we do not bend</h2>
      <ul>
        <li>A price is never simulated, interpolated or invented: not in a fallback, not in a chart, not in a widget.</li>
        <li>
          When an upstream is down and a real price was seen before, that price is served flagged <code>stale</code>, with its age.
        </li>
        <li>
          When no real price has ever been seen, the answer says <code>unavailable</code> (HTTP 503 on spot). Garbage from an upstream counts as down.
        </li>
        <li>
          Every REST response carries <code>data_state</code> and <code>updated_at</code>, and names its source.
        </li>
      </ul>
      <h2 id="sources">Sources</h2>
      <table>
        <thead>
          <tr>
            <th>data</th>
            <th>source</th>
            <th>notes</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Gold, silver, platinum and palladium spot</td>
            <td>gold-api.com (primary)</td>
            <td>USD per troy ounce; cached 30 s</td>
          </tr>
          <tr>
            <td>Gold, silver, platinum and palladium spot, bid and ask</td>
            <td>Swissquote public quotes (swissquote.com)</td>
            <td>Second, independent source: the narrowest bid/ask of the newest quote, its mid served when the primary is down; cached 30 s</td>
          </tr>
          <tr>
            <td>FX rates (160+ codes)</td>
            <td>open.er-api.com (ExchangeRate-API)</td>
            <td>
              Updated daily; cached 12 h. Fallback: a real recorded table of 2026-06-02, flagged <code>fx_stale</code>
            </td>
          </tr>
          <tr>
            <td>Bitcoin, PAX Gold, Tether Gold</td>
            <td>CoinGecko</td>
            <td>Cached 60 s; tokens track gold but are not spot</td>
          </tr>
          <tr>
            <td>Daily history, charts</td>
            <td>Yahoo Finance chart data</td>
            <td>History is the COMEX front-month gold future (GC=F), which trades a little above spot</td>
          </tr>
          <tr>
            <td>Historical exchange rates</td>
            <td>Frankfurter (frankfurter.dev), central-bank reference rates</td>
            <td>
              Per currency, asked once as a range and then only for the new days, kept in the store; converts each history point at its own
              date&apos;s rate
            </td>
          </tr>
          <tr>
            <td>Monthly prices since 1960</td>
            <td>World Bank Commodity Price Data (the Pink Sheet)</td>
            <td>Gold, silver and platinum monthly averages; CC BY 4.0</td>
          </tr>
          <tr>
            <td>Intraday series</td>
            <td>Recorded by this service</td>
            <td>The spot price served, sampled every 2 minutes while the market is open, kept 14 days; only real samples, never filled in</td>
          </tr>
          <tr>
            <td>Central-bank holdings</td>
            <td>IMF (IRFCL, via DBnomics) and the World Gold Council</td>
            <td>Monthly; a bundled snapshot serves when the live source fails</td>
          </tr>
          <tr>
            <td>Supply and reserve statistics</td>
            <td>World Gold Council, USGS</td>
            <td>
              Annual; vintage in <code>stats_as_of</code>
            </td>
          </tr>
        </tbody>
      </table>
      <h2 id="units">Units of weight</h2>
      <p>
        Every endpoint, tool and widget that takes <code>unit</code> takes these, from one list. A price per unit is the price per troy ounce ÷
        31.1034768 × the unit&apos;s grams (the troy ounce and the kilogram by their exact constants), rounded once, on output: 4 decimals per gram
        and per grain, 2 for every other unit.
      </p>
      <table>
        <thead>
          <tr>
            <th>
              <code>unit</code>
            </th>
            <th>name</th>
            <th>definition</th>
            <th>where it is used</th>
          </tr>
        </thead>
        <tbody>
          {UNIT_LIST.map((u) => (
            <tr key={u.id} id={`unit-${u.id}`}>
              <td>
                <code>{u.id}</code>
              </td>
              <td>{u.name}</td>
              <td>{u.definition}</td>
              <td>{'note' in u ? u.note : 'worldwide'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="purity">Purity</h2>
      <p>
        Gold takes <code>karat</code> (24k, 22k, 21k, 18k, 14k, 10k, 9k: karat ÷ 24 fine) or <code>fineness</code>; every metal takes{' '}
        <code>fineness</code>, written as a fraction (<code>0.925</code>) or in parts per thousand as a hallmark writes it (<code>925</code>,{' '}
        <code>999.9</code>): a value above 0 up to 1 is a fraction, above 1 up to 1000 parts per thousand. <code>1</code> is therefore pure metal,
        never one part per thousand. Anything else is a 400 that names both forms. The common finenesses:
      </p>
      <ul>
        {METALS.map((m) => (
          <li key={m.id}>
            {m.name}: {COMMON_FINENESS[m.id].map((f) => `${f.ppt}${f.name ? ` (${f.name})` : ''}`).join(', ')}
          </li>
        ))}
      </ul>
      <h2 id="metal-value">What metal is worth</h2>
      <p>
        <code>/api/v1/value</code> (and the MCP tool <code>get_metal_value</code>) answers what a weight of metal at a purity, or a number of the
        coins below, is worth at spot: fine troy ounces × spot&apos;s USD price × the exchange rate spot uses, rounded once to 2 decimals, from the
        same served price as spot, so one gram valued equals spot&apos;s gram. With a <code>quote</code> it says how far a price you were asked or
        offered is above or below that value.
      </p>
      <p id="not-a-shop-price">
        <strong>This is the metal&apos;s value, not a shop&apos;s price.</strong> Dealers and jewellers sell above it and buy below it; making
        charges, taxes and a coin&apos;s collector value are not in it. The service holds no city, retail, dealer or jeweller prices.
      </p>
      <h3 id="items">The coins</h3>
      <p>
        The fine metal of each coin is the figure its mint states (a 1 oz coin holds 1.0000 troy oz, whatever its gross weight times its fineness
        rounds to); the US circulating silver coins are valued from the standard weight and fineness of the law they were struck under. The list is
        data bundled with the release (<code>lib/data/bullion-coins.json</code>), checked against its sources on {ITEMS_AS_OF};{' '}
        <code>/api/v1/items</code> serves it.
      </p>
      <table>
        <thead>
          <tr>
            <th>
              <code>item</code>
            </th>
            <th>coin</th>
            <th>gross weight</th>
            <th>fineness</th>
            <th>fine metal</th>
            <th>specification</th>
          </tr>
        </thead>
        <tbody>
          {ITEMS.map((i) => (
            <tr key={i.id}>
              <td>
                <code>{i.id}</code>
              </td>
              <td>
                {i.name} ({i.issuer})
              </td>
              <td>{i.gross_g} g</td>
              <td>{i.fineness}</td>
              <td>
                {i.fine_oz} troy oz ({i.fine_g} g)
              </td>
              <td>
                <a href={i.source}>source</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="two-sources">Two live sources, cross-checked</h2>
      <p>
        Spot gold, silver, platinum and palladium are each read from two independent sources, each on its own 30-second cache, each asked at most once
        per cache period however many clients ask. A single failure is retried by the next request; after two in a row a source is left alone for 5
        seconds. The served price is gold-api.com&apos;s when it is fresh, else the mid of the Swissquote quote when that is fresh (
        <code>price_source</code> then says <code>swissquote.com</code>), else the newer last real price of either, flagged <code>stale</code>. One
        source down never makes spot stale while the other answers.
      </p>
      <p>
        When both are fresh they are compared: more than 1.5% apart, one of them is wrong, so <code>cross_check.status</code> is <code>diverged</code>{' '}
        and the price closer to the last one served is served (the divergence is logged). <code>sources</code> shows what each source holds, so you
        can see the disagreement yourself. Both sources pass the same checks: a positive finite price within plausible bounds, no jump of more than
        25% within 10 minutes, and for the quotes a bid below the ask. The plausible bounds, USD per troy ounce: gold 100 to 100,000, silver 1 to
        5,000, platinum and palladium 50 to 50,000. Each metal is chosen, cross-checked and kept on its own: platinum or palladium down never changes
        gold&apos;s state or the HTTP status; one never seen is <code>null</code> with its source <code>unavailable</code>.
      </p>
      <h2 id="market-hours">Market hours</h2>
      <p>
        Spot gold trades from Sunday 18:00 to Friday 17:00 New York time, with a daily break from 17:00 to 18:00 Monday to Thursday, and closes for 25
        December, 1 January and Good Friday (from 17:00 the day before until 18:00 on the day). Spot carries <code>market</code> with{' '}
        <code>status</code>, <code>reason</code> (<code>holiday</code>, <code>weekend</code> or <code>daily_break</code>) and <code>next_change</code>
        . While the market is closed the price does not move, yet it stays <code>fresh</code>: freshness is about the sources answering, not about
        trading. The intraday recorder takes no samples while closed, and its last sample before the close stays <code>fresh</code> through the
        closure.
      </p>
      <h2 id="change">How the change is computed</h2>
      <p>
        The service keeps its own daily spot series. A trading session runs from one open to the next close at 17:00 New York time, and its date is
        the New York date on which it closes (Sunday 18:00 to Monday 17:00 is Monday&apos;s session). Every fresh spot price the service serves, from
        the 2-minute samples and from requests between them, is folded into that session&apos;s bar of its metal (gold, silver, platinum, palladium):
        the first price is the <code>open</code>, the last the <code>close</code>, the extremes the <code>high</code> and <code>low</code>, with a{' '}
        <code>count</code> and the FX table in force at the close. Each new reading of a source is folded once, whatever the number of requests that
        read it; stale prices and a closed market fold nothing in. Bars are kept 10 years in the store that every instance shares, and two instances
        folding at the same moment lose nothing.
      </p>
      <p>
        Spot&apos;s <code>change</code> (and <code>silver_change</code>) compares the served price with <code>previous_close</code>, the close of the
        latest bar dated before the current session: <code>change</code> is the shown price minus the shown previous close, exactly, and{' '}
        <code>change_pct</code> the percentage, in the currency and unit you asked for (halves rounded away from zero). In another currency than USD
        the previous close is converted at the FX table recorded with its bar (<code>fx_basis: close</code>), so the figure includes the
        currency&apos;s own move, as long as a fresh table is in force today; when the bar has none (imported bars) or the FX source is down (the last
        live table or the bundled snapshot in force), both figures are converted at today&apos;s table (<code>fx_basis: current</code>), never one at
        each. While the market is closed it compares the last close with the one before, as retail sites do on a weekend. <code>open</code>,{' '}
        <code>high</code> and <code>low</code> are the current session&apos;s bar. No figure ever comes from another instrument: the futures history
        is not spot.
      </p>
      <p>
        <strong>Why it moved.</strong> A price in rupees can rise on a day gold fell in dollars, because the rupee fell more. Each change says how
        much came from each: <code>from_metal</code> is the metal&apos;s own move, the change in US dollars converted at the rate recorded with the
        previous close ((p₁ − p₀)·F₀ per unit, and (p₁ ÷ p₀ − 1) × 100 percent), and <code>from_currency</code> the currency&apos;s move against the
        dollar (p₁·(F₁ − F₀), positive when the currency fell). The metal&apos;s part is rounded from its formula and the currency&apos;s is the rest,
        so the two shown add up to the change shown exactly, each within a rounding step of its formula. In USD all of it is the metal&apos;s (
        <code>from_currency</code> is zero); in another currency with <code>fx_basis: current</code> the rate at that close is not known, and both are
        null rather than a guess. The price stream and <code>get_gold_price</code> carry the same split.
      </p>
      <p>
        <strong>Why it can be missing.</strong> A new deployment has seen no earlier session, so <code>change.state</code> is <code>unavailable</code>{' '}
        and every number is null until it has recorded a full session (the widget and landing page then show no change rather than a guess). A session
        the service did not observe, for example while it was stopped, has no bar: nothing is interpolated or carried over. An operator who holds the
        rights to a daily file (a licensed LBMA or broker file, their own records) can load earlier sessions with{' '}
        <code>npm run import-daily -- --symbol xau FILE.csv</code> (a header naming <code>date</code> or <code>time</code>, <code>open</code>,{' '}
        <code>high</code>, <code>low</code> and <code>close</code> in any case and order, other columns ignored; a malformed row, a date after the
        current session or older than the 10 years kept refuses the file whole with its line number; the file is written whole or not at all, and a
        bar the service recorded is never overwritten). The bars themselves are served by <code>/api/v1/history?series=spot</code>, every metal&apos;s
        with <code>symbol</code> (<code>xau</code> by default, <code>xag</code>, <code>xpt</code>, <code>xpd</code>). Each instance holds each
        metal&apos;s series and reads it again only when a bar changes, which the store tells it through a version moved by every fold and import,
        asked for at most once a second: an import or another instance&apos;s fold shows within a second.
      </p>
      <h2 id="status">How the sources have behaved</h2>
      <p>
        Every request the service makes to a source is recorded: whether it succeeded, how it failed (timeout, HTTP status, a body that is not JSON,
        of the wrong shape or with an implausible value, a refused or cut connection) and how long it took. The <a href="/status">status page</a>{' '}
        shows each source&apos;s state, availability over 24 hours and 7 days, latency and last failure, how far the two live sources stood apart, and
        which sessions have no daily bar; <code>/api/v1/status</code> gives the same as JSON, and the MCP tool <code>get_data_status</code> too.
      </p>
      <h2 id="history-series">The history series</h2>
      <p>
        <code>/api/v1/history</code> serves four series, each named in its <code>source</code>, in any currency and unit (<code>currency</code>,{' '}
        <code>unit</code>): every point is converted at the central-bank reference rate of its own date (the last rate published on or before it,
        named by <code>fx_d</code> when it is from an earlier day; a monthly point at the average of its month&apos;s daily rates), never at
        today&apos;s rate, and points before a currency&apos;s first rate are left out. No point is converted at a rate more than 7 days older than
        it: where a currency&apos;s rates have a longer gap its points there are left out, counted in <code>fx.left_out</code>; a currency that ended
        (its source&apos;s last rate is more than 7 days old, such as the kuna after 2022-12-30) has no point after its last rate, named in{' '}
        <code>fx.until</code>. Every body names its series in <code>series</code> (<code>futures</code>, <code>spot</code> or <code>monthly</code>;
        the CSV in the <code>X-Series</code> header), and <code>to</code> without <code>from</code> counts the window back from <code>to</code>. The
        futures series is <code>stale</code> when its latest bar is more than 4 days before the current session, however recently it was fetched: the
        upstream has stopped bringing new bars.
      </p>
      <table>
        <thead>
          <tr>
            <th>series</th>
            <th>what it is</th>
            <th>source</th>
            <th>licence</th>
            <th>coverage</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>futures</code> (default)
            </td>
            <td>Daily close, high and low of the COMEX front-month gold future, which trades a little above spot</td>
            <td>Yahoo Finance chart data (GC=F)</td>
            <td>Yahoo&apos;s terms; shown as reference data</td>
            <td>Gold, every trading day since 2000-08-30; 5 years unless asked for more</td>
          </tr>
          <tr>
            <td>
              <code>spot</code>
            </td>
            <td>Daily open, high, low and close of the spot prices this service served, and bars the operator imported</td>
            <td>Recorded by this service</td>
            <td>The operator&apos;s</td>
            <td>Gold, silver, platinum, palladium; from the day the deployment started (or the imported bars), kept 10 years</td>
          </tr>
          <tr>
            <td>
              <code>monthly</code>
            </td>
            <td>Monthly average price: the London afternoon fixing&apos;s average before June 2025, the spot average of daily rates since</td>
            <td>World Bank Commodity Price Data (the Pink Sheet)</td>
            <td>CC BY 4.0</td>
            <td>Gold, silver, platinum, every month since 1960-01 (no palladium)</td>
          </tr>
          <tr id="series-london">
            <td>
              <code>london</code>
            </td>
            <td>
              This service&apos;s own spot at a London time of day (<code>time</code>): the first fresh price it took at or after that minute, within
              5 minutes, one value per London business day
            </td>
            <td>Recorded by this service</td>
            <td>The operator&apos;s</td>
            <td>
              Gold <code>am</code> 10:30 and <code>pm</code> 15:00, silver <code>noon</code> 12:00, platinum and palladium <code>am</code> 09:45 and{' '}
              <code>pm</code> 14:00 (Europe/London); from the day the deployment started, kept 10 years
            </td>
          </tr>
        </tbody>
      </table>
      <section id="london-times" aria-labelledby="london-times-title">
        <h3 id="london-times-title">Prices at London times</h3>
        <p>
          People often ask for the gold or silver price &quot;at the London time&quot; of a date. <code>/api/v1/history?series=london</code> answers
          with this service&apos;s own spot at those minutes: on each London business day (no weekends, no England and Wales bank holidays), each
          metal&apos;s value at a time is the first fresh price the service took at or after that minute, within 5 minutes. A day with no such reading
          has no value for that time, and nothing is filled in. Each value is kept once, whichever instance, cron run or request took the reading, for
          10 years. <code>time</code> chooses the time: <code>am</code> (10:30) or <code>pm</code> (15:00, the default) for gold, <code>noon</code>{' '}
          (12:00) for silver, <code>am</code> (09:45) or <code>pm</code> (14:00, the default) for platinum and palladium; another metal&apos;s time is
          a 400 listing the valid ones. Points are <code>{'{d, p, t}'}</code>: the London date, the price and when the service took the reading.{' '}
          <code>currency</code>, <code>unit</code>, the windows, <code>date=</code>, CSV (<code>date,price,time</code>) and the MCP tool{' '}
          <code>get_gold_history</code> work as for the other series; <code>group</code> does not apply.
        </p>
        <p id="london-not-benchmark">
          These values are computed from this service&apos;s spot prices. They are not the LBMA Gold Price or the LBMA Silver Price, nor the
          LME&apos;s platinum and palladium prices, and are not derived from them.
        </p>
      </section>
      <h2 id="disclaimer">Disclaimer</h2>
      <p>
        All prices are indicative mid-market reference rates provided as-is, without warranty. They are not tradable quotes and are not for
        settlement, execution or contractual valuation. Statistics belong to their publishers; see each source&apos;s terms before redistributing
        them.
      </p>
    </>
  );
}
