import type { AppProps } from 'next/app';
import Head from 'next/head';
import { SiteLayout } from '@/site/layout';
import '@/site/globals.css';

// Every site page is HTML and CSS only: each page sets `config.unstable_runtimeJS = false`, so no
// framework code reaches the browser; a page that needs behaviour (the landing's live price and chart,
// the widget builder) adds its own small script (site/scripts/, bundled by scripts/build-widgets.mjs). A page
// whose props name its `language` (the price pages and the 404 page) has the header and footer in it.
export default function App({ Component, pageProps, router }: AppProps) {
  return (
    <>
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <SiteLayout path={router.pathname} lang={(pageProps as { language?: { lang?: string } }).language?.lang}>
        <Component {...pageProps} />
      </SiteLayout>
    </>
  );
}
