import Head from 'next/head';
import { Fragment, type ReactNode } from 'react';
import { PAGE_STRINGS, type Language, type PageStrings } from '@/widgets/i18n';

// The frame every site page shares: header with the main navigation, the page, the footer. Pages are
// server-rendered HTML with plain links and ship no framework runtime (see pages/_app.tsx). A page with a language
// of its own (the price pages, decisions §27) has its header and footer in that language; every other page is English.

const SITE = 'Gold API';
const DESCRIPTION =
  'Live gold spot in 160+ currencies, intraday and daily history, charts, central-bank reserves, an MCP endpoint and embeddable widgets. Free, no key, honest about freshness.';

/** The main navigation: each link's address and its words (`PAGE_STRINGS`), or its name where it has no translation. */
const LINKS = [
  ['/developers', 'navDevelopers'],
  ['/docs', 'navDocs'],
  ['/docs/api', 'navApi'],
  ['/docs/mcp', null],
  ['/docs/widgets', 'navWidgets'],
  ['/docs/data', 'navData'],
  ['/docs/recipes', 'navRecipes'],
] as const;

const SOURCES = 'gold-api.com, Swissquote, open.er-api.com, CoinGecko, Yahoo Finance, World Gold Council, IMF, USGS';

/** The site's words in `lang` (a page's language), English for a page that has none. */
export function siteWords(lang?: string): PageStrings {
  return lang && Object.hasOwn(PAGE_STRINGS, lang) ? PAGE_STRINGS[lang as Language] : PAGE_STRINGS.en;
}

/** `template`'s words with each `{name}` replaced by `parts[name]` (a link, a code span). */
export function sentence(template: string, parts: Record<string, ReactNode>): ReactNode[] {
  return template.split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? <Fragment key={i}>{parts[piece]}</Fragment> : piece));
}

/** The page's title (the site's name follows it) and description; the landing page has the site's own title. */
export function PageHead({ title, description = DESCRIPTION }: { title?: string; description?: string }) {
  return (
    <Head>
      <title>{title ? `${title} · ${SITE}` : `${SITE}: free, keyless gold market data`}</title>
      <meta name="description" content={description} />
    </Head>
  );
}

export function SiteLayout({ path, lang, children }: { path: string; lang?: string; children: ReactNode }) {
  const w = siteWords(lang);
  return (
    <>
      <a className="skip" href="#content">
        {w.skip}
      </a>
      <header className="site">
        <div className="wrap">
          <a className="brand" href="/">
            <span aria-hidden="true">◆</span> {SITE}
          </a>
          <nav className="main" aria-label={w.navMain}>
            <ul>
              {LINKS.map(([href, key]) => (
                <li key={href}>
                  <a href={href} aria-current={path === href ? 'page' : undefined}>
                    {key ? w[key] : 'MCP'}
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
            {w.disclaimer} {sentence(w.sources, { list: SOURCES, details: <a href="/docs/data">{w.details}</a> })}
          </p>
          <p>
            <a href="/api/openapi.json">OpenAPI</a> · <a href="/llms.txt">llms.txt</a> · <a href="/docs/changelog">{w.changelog}</a> ·{' '}
            <a href="/status">{w.status}</a>
          </p>
        </div>
      </footer>
    </>
  );
}
