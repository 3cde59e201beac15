import type { GetServerSidePropsContext } from 'next';
import { METALS } from '@/lib/reference/metals';
import { UNITS } from '@/lib/reference/units';
import { PageHead } from './layout';

/** Pages that exist, for a visitor who asked for one that does not. */
const EXAMPLES = ['/gold/usd/oz', '/gold/eur/gram', '/gold/inr/tola', '/gold/thb/baht', '/gold/hkd/tael', '/silver/gbp/oz'];

// The site's own 404 page (decisions §14, §27): any address no route serves, and a price page of a metal, currency
// or unit the service does not have. It links to what there is.

/** Answers 404 for a page that renders <NotFound />. */
export function notFoundProps(ctx: Pick<GetServerSidePropsContext, 'res'>): { props: { notFound: true } } {
  ctx.res.statusCode = 404;
  return { props: { notFound: true } };
}

export function NotFound() {
  return (
    <>
      <PageHead title="Page not found" />
      <h1>Page not found</h1>
      <p>
        There is no page at this address. Prices live at addresses such as <code>/gold/usd/oz</code> or <code>/silver/eur/gram</code>:
      </p>
      <ul>
        {METALS.map((m) => (
          <li key={m.id}>
            <a href={`/${m.id}`}>{m.name} price</a>
          </li>
        ))}
      </ul>
      <p>
        Units: {UNITS.join(', ')}. Currencies: any ISO 4217 code the FX table holds, in lower case, for example{' '}
        {EXAMPLES.map((p, i) => (
          <span key={p}>
            {i ? ', ' : ''}
            <a href={p}>{p}</a>
          </span>
        ))}
        .
      </p>
      <p>
        The <a href="/developers">developer home</a> and the <a href="/docs">documentation</a> start here, and the API lives under{' '}
        <code>/api/v1/</code> (see the <a href="/docs/api">API reference</a>).
      </p>
    </>
  );
}
