import { METALS } from '@/lib/reference/metals';
import { UNITS } from '@/lib/reference/units';
import { fill } from '@/widgets/format';
import { STRINGS, type Language } from '@/widgets/i18n';
import { PageHead, sentence, siteWords } from './layout';
import type { NotFoundProps } from './not-found-props';
import { marketUnit, pagePath } from './price-choice';

/** Pages that exist, for a visitor who asked for one that does not. */
const EXAMPLES = ['/gold/usd/oz', '/gold/eur/gram', '/gold/inr/tola', '/gold/thb/baht', '/gold/hkd/tael', '/silver/gbp/oz'];

// The site's own 404 page (decisions §14, §27): any address no route serves, and a price page of a metal, currency
// or unit the service does not have. It links to what there is, in the visitor's language as the price pages choose
// it (`?lang=`, the saved choice, Accept-Language): the price pages' routes take nearly every short address, so a
// 404 whose language hung on the route would change language with the number of slashes in a typo.

export function NotFound({ language, currencies = [] }: Partial<NotFoundProps>) {
  const w = siteWords(language?.lang);
  const t = STRINGS[(language?.lang ?? 'en') as Language] ?? STRINGS.en;
  // Addresses read left to right inside a right-to-left sentence too (dir="ltr" isolates them).
  const langQuery = language?.asked ? `?lang=${language.lang}` : '';
  return (
    <>
      <PageHead title={w.notFound} />
      <h1>{w.notFound}</h1>
      <p>{sentence(w.notFoundLead, { a: <code dir="ltr">/gold/usd/oz</code>, b: <code dir="ltr">/silver/eur/gram</code> })}</p>
      <ul>
        {METALS.map((m) => (
          <li key={m.id}>
            <a href={`/${m.id}${langQuery}`}>{fill(w.metalPrice, { metal: t[m.id] })}</a>
          </li>
        ))}
      </ul>
      <p>
        {sentence(w.notFoundUnits, {
          units: UNITS.join(', '),
          examples: EXAMPLES.map((p, i) => (
            <span key={p}>
              {i ? ', ' : ''}
              <a href={p + langQuery} dir="ltr">
                {p}
              </a>
            </span>
          )),
        })}
      </p>
      <p>
        {fill(w.notFoundCurrencies, { n: String(currencies.length) })}{' '}
        {currencies.map((code, i) => (
          <span key={code}>
            {i ? ' ' : ''}
            <a href={pagePath('gold', code, marketUnit(code)) + langQuery} dir="ltr">
              {code}
            </a>
          </span>
        ))}
      </p>
      <p>
        {sentence(w.notFoundMore, {
          developers: <a href="/developers">{w.developerHome}</a>,
          docs: <a href="/docs">{w.documentation}</a>,
          api: <code dir="ltr">/api/v1/</code>,
          reference: <a href="/docs/api">{w.navApi}</a>,
        })}
      </p>
    </>
  );
}
