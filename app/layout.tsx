import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SiteNav } from './site-nav';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Gold API: free, keyless gold market data', template: '%s · Gold API' },
  description:
    'Live gold spot in 160+ currencies, intraday and daily history, charts, central-bank reserves, an MCP endpoint and embeddable widgets. Free, no key, honest about freshness.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, colorScheme: 'light dark' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip" href="#content">
          Skip to content
        </a>
        <header className="site">
          <div className="wrap">
            <a className="brand" href="/">
              <span aria-hidden="true">◆</span> Gold API
            </a>
            <SiteNav />
          </div>
        </header>
        <main id="content" className="wrap">
          {children}
        </main>
        <footer className="site">
          <div className="wrap">
            <p>
              Prices are indicative mid-market reference rates provided as-is, without warranty. They are not tradable quotes and are not for
              settlement, execution or contractual valuation. Sources: gold-api.com, Swissquote, open.er-api.com, CoinGecko, Yahoo Finance, World Gold
              Council, IMF, USGS (<a href="/docs/data">details</a>).
            </p>
            <p>
              <a href="/api/openapi.json">OpenAPI</a> · <a href="/llms.txt">llms.txt</a> · <a href="/docs/changelog">Changelog</a>
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}
