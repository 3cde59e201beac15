import Head from 'next/head';
import type { ReactNode } from 'react';

// The frame every site page shares: header with the main navigation, the page, the footer. Pages are
// server-rendered HTML with plain links and ship no framework runtime (see pages/_app.tsx).

const SITE = 'Gold API';
const DESCRIPTION =
  'Live gold spot in 160+ currencies, intraday and daily history, charts, central-bank reserves, an MCP endpoint and embeddable widgets. Free, no key, honest about freshness.';

const LINKS = [
  ['/developers', 'Developers'],
  ['/docs', 'Docs'],
  ['/docs/api', 'API reference'],
  ['/docs/mcp', 'MCP'],
  ['/docs/widgets', 'Widgets'],
  ['/docs/data', 'Data & trust'],
  ['/docs/recipes', 'Recipes'],
] as const;

/** The page's title (the site's name follows it) and description; the landing page has the site's own title. */
export function PageHead({ title, description = DESCRIPTION }: { title?: string; description?: string }) {
  return (
    <Head>
      <title>{title ? `${title} · ${SITE}` : `${SITE}: free, keyless gold market data`}</title>
      <meta name="description" content={description} />
    </Head>
  );
}

export function SiteLayout({ path, children }: { path: string; children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="site">
        <div className="wrap">
          <a className="brand" href="/">
            <span aria-hidden="true">◆</span> {SITE}
          </a>
          <nav className="main" aria-label="Main">
            <ul>
              {LINKS.map(([href, label]) => (
                <li key={href}>
                  <a href={href} aria-current={path === href ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
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
            <a href="/api/openapi.json">OpenAPI</a> · <a href="/llms.txt">llms.txt</a> · <a href="/docs/changelog">Changelog</a> ·{' '}
            <a href="/status">Status</a>
          </p>
        </div>
      </footer>
    </>
  );
}
