import type { GetServerSidePropsContext } from 'next';
import { fxInUse } from '@/lib/prices/spot';
import { feeds } from '@/lib/sources/feeds';
import { textFor } from '@/widgets/i18n';
import { pageLanguage, type PageLanguage } from './price-choice';

// The 404 page's data (site/not-found.tsx draws it), apart from the component: a page's component is bundled for the
// browser too, and what this reads (the FX table) is server code.

export interface NotFoundProps {
  notFound: true;
  /** The visitor's language; `words` and `dir` name it to pages/_document.tsx. */
  language: PageLanguage;
  words: { lang: string };
  dir: 'ltr' | 'rtl';
  /** Every currency a page takes (the FX table in use), upper case, sorted. */
  currencies: string[];
}

/** Answers 404 for a page that renders <NotFound />, in the visitor's language, with every currency a page takes. */
export async function notFoundProps(ctx: Pick<GetServerSidePropsContext, 'res' | 'req' | 'query'>): Promise<{ props: NotFoundProps }> {
  ctx.res.statusCode = 404;
  const language = pageLanguage(String(ctx.query.lang ?? ''), ctx.req.headers.cookie, ctx.req.headers['accept-language']);
  const text = textFor(language.locale);
  const currencies = Object.keys(fxInUse(await feeds.fx.read(), Date.now()).table).sort();
  return { props: { notFound: true, language, words: { lang: text.lang }, dir: text.dir, currencies } };
}
