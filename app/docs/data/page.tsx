import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Data sources and trust' };

export default function DataDocs() {
  return (
    <>
      <h1>Data sources and trust rules</h1>
      <h2 id="rules">The rules we do not bend</h2>
      <ul>
        <li>A price is never simulated, interpolated or invented: not in a fallback, not in a chart, not in a widget.</li>
        <li>When an upstream is down and a real price was seen before, that price is served flagged <code>stale</code>, with its age.</li>
        <li>When no real price has ever been seen, the answer says <code>unavailable</code> (HTTP 503 on spot). Garbage from an upstream counts as down.</li>
        <li>Every REST response carries <code>data_state</code> and <code>updated_at</code>, and names its source.</li>
      </ul>
      <h2 id="sources">Sources</h2>
      <table>
        <thead>
          <tr><th>data</th><th>source</th><th>notes</th></tr>
        </thead>
        <tbody>
          <tr><td>Gold and silver spot</td><td>gold-api.com</td><td>USD per troy ounce; cached 30 s</td></tr>
          <tr><td>FX rates (160+ codes)</td><td>open.er-api.com (ExchangeRate-API)</td><td>Updated daily; cached 12 h. Fallback: a real recorded table of 2026-06-02, flagged <code>fx_stale</code></td></tr>
          <tr><td>Bitcoin, PAX Gold, Tether Gold</td><td>CoinGecko</td><td>Cached 60 s; tokens track gold but are not spot</td></tr>
          <tr><td>Daily history, charts</td><td>Yahoo Finance chart data</td><td>History is the COMEX front-month gold future (GC=F), which trades a little above spot</td></tr>
          <tr><td>Intraday series</td><td>Recorded by this service</td><td>The live spot sampled every 2 minutes, kept 14 days; only real samples, never filled in</td></tr>
          <tr><td>Central-bank holdings</td><td>IMF (IRFCL, via DBnomics) and the World Gold Council</td><td>Monthly; a bundled snapshot serves when the live source fails</td></tr>
          <tr><td>Supply and reserve statistics</td><td>World Gold Council, USGS</td><td>Annual; vintage in <code>stats_as_of</code></td></tr>
        </tbody>
      </table>
      <h2 id="disclaimer">Disclaimer</h2>
      <p>
        All prices are indicative mid-market reference rates provided as-is, without warranty. They are not tradable quotes and are not for
        settlement, execution or contractual valuation. Statistics belong to their publishers; see each source&apos;s terms before
        redistributing them.
      </p>
    </>
  );
}
