import type { PageConfig } from 'next';
import { FX_FALLBACK } from '@/lib/sources/fx-fallback';
import { METALS } from '@/lib/reference/metals';
import { UNITS } from '@/lib/reference/units';
import { Code } from '@/site/code';
import { WidgetBuilder } from '@/site/builder';
import { PageHead } from '@/site/layout';
import { originProps, type OriginProps } from '@/site/page-props';

export const config: PageConfig = { unstable_runtimeJS: false };
export const getServerSideProps = originProps;

export default function WidgetsDocs({ origin }: OriginProps) {
  const currencies = Object.keys(FX_FALLBACK.table).sort();
  return (
    <>
      <PageHead title="Embeddable widgets" />
      <h1>Embeddable widgets</h1>
      <p className="lead">
        A live gold, silver, platinum or palladium price, a chart or a converter (money to a weight of metal at a purity and back, at the metal&apos;s
        value at spot, which it says is not a shop&apos;s price) on your page with one line. Widgets are small server-rendered pages with their own
        tiny script (no framework runtime): the price is visible before any JavaScript runs, each new price is pushed to them as the service sees it (
        <a href="/docs/api#getStream">the price stream</a>), and they show a stale badge or &ldquo;unavailable&rdquo; rather than a made-up number.
        The chart widget draws its line at once as a light picture of the real points (high, low, first and last times); the interactive chart with
        its crosshair starts when a pointer or keyboard focus comes to it. Under its spot headline the chart says what the line is: a metal&apos;s
        spot price recorded every 2 minutes (1D), its daily spot bars where they cover the range (no more than 5 sessions missing at its start, its
        end or anywhere in it), or otherwise COMEX futures, labelled as such in the widget&apos;s language, with the currency and unit it is drawn in;{' '}
        <code>max</code> draws the World Bank&apos;s monthly average prices since 1960 (CC BY 4.0; palladium, which they lack, its futures&apos; daily
        bars), with a logarithmic scale to switch to. Points are placed by their time, so a stretch with no data shows as a gap, and each range asks
        the API only for the dates it draws. Under the chart, the range&apos;s change is written from the first and the last point drawn
        (&ldquo;+4.20% over 1 year&rdquo;). The price pages&apos; chart is drawn by the same code.
      </p>
      <h2 id="quick">Quick embed</h2>
      <Code title="Script tag: the iframe is created and sized for you, lazily when it scrolls into view">{`<script src="${origin}/embed.js" data-widget="price" data-currency="EUR" data-theme="auto" async></script>`}</Code>
      <Code title="Several widgets: mark each place, include the script once">{`<div data-gold-widget="price" data-currency="GBP"></div>
<div data-gold-widget="converter" data-currency="INR" data-unit="gram"></div>
<script src="${origin}/embed.js" async></script>`}</Code>
      <p>
        Options: <code>currency</code> (ISO 4217), <code>unit</code> ({UNITS.join(', ')}), <code>theme</code> (light, dark, auto), <code>locale</code>{' '}
        (language, numbers and dates); price and converter: <code>metal</code> ({METALS.map((m) => m.id).join(', ')}; gold by default); price:{' '}
        <code>silver</code>, <code>ratio</code>; chart: <code>symbol</code>, <code>range</code>; converter: <code>amount</code>,{' '}
        <code>direction</code> (money-to-gold, gold-to-money), <code>fineness</code> (any metal: a fraction such as <code>0.925</code> or parts per
        thousand such as <code>925</code>, <code>999.9</code>; for gold also a karat, <code>18k</code>), <code>karat</code> (24, 22, 21, 18, 14, 10,
        9; gold only); all: <code>live</code> (<code>0</code> polls instead of following the stream). Unknown values fall back to the defaults. The
        change beside the price is the shown metal&apos;s move since the previous session&apos;s close, from the daily spot bars this service records
        (<a href="/docs/data#change">how</a>
        ); it is left out until a previous close has been recorded.
      </p>
      <h2 id="live">Live updates</h2>
      <p>
        The price and converter widgets follow <code>GET /api/v1/stream</code>: a new price shows within a second or two of the service seeing it,
        with no polling and no upstream call per reader. The chart&apos;s 1D line of a metal adds each pushed price between the 2-minute refreshes of
        its recorded series. With <code>live=0</code> (<code>data-live=&quot;0&quot;</code> on the script tag or the place) a widget polls at the
        data&apos;s cache time instead (spot every 30 s). In a browser without EventSource, or when the stream is turned off, full or keeps failing, a
        widget falls back to polling by itself and says nothing about it; a hidden tab holds no stream.
      </p>
      <h2 id="languages">Languages</h2>
      <p>
        Every label of the three widgets is translated into English, German, French, Spanish, Italian, Portuguese, Turkish, Arabic, Hindi, Chinese and
        Japanese. The language follows the first part of <code>locale</code> (<code>de-DE</code> and <code>de-CH</code> are German, <code>pt-BR</code>{' '}
        is Portuguese, <code>zh-CN</code> and <code>zh-TW</code> are Chinese, in simplified characters); numbers, currencies and dates follow the
        whole locale. Arabic widgets are laid out right to left (<code>dir=&quot;rtl&quot;</code>). Any other locale gets English labels with its own
        number and date formats.
      </p>
      <h2 id="builder">Builder</h2>
      <WidgetBuilder origin={origin} currencies={currencies} />
      <h2 id="examples">Examples</h2>
      {/* Embedded as a publisher would (embed.js): each frame loads when it comes near the viewport. */}
      <div className="grid2">
        <div data-gold-widget="price" data-silver="1" data-ratio="1" />
        <div data-gold-widget="converter" data-currency="EUR" data-unit="gram" />
        <div data-gold-widget="chart" data-range="1y" />
        <script src="/embed.js" async />
      </div>
    </>
  );
}
