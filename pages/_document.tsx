import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document';

/** A price page and the 404 page name their language and direction (decisions §27); every other page is English. */
interface Language {
  words?: { lang?: string };
  dir?: 'ltr' | 'rtl';
}

export default function Document(props: DocumentProps) {
  const page = (props.__NEXT_DATA__?.props?.pageProps ?? {}) as Language;
  return (
    <Html lang={page.words?.lang ?? 'en'} dir={page.dir === 'rtl' ? 'rtl' : undefined}>
      <Head>
        <meta name="color-scheme" content="light dark" />
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
      </Head>
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
