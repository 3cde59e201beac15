import type { PageConfig } from 'next';
import { Code } from '@/site/code';
import { PageHead } from '@/site/layout';
import { originProps, type OriginProps } from '@/site/page-props';
import { recipes } from '@/site/recipes';

// Recipes that work as written (decisions §30): rendered from site/recipes.ts, which a test runs against the service.

export const config: PageConfig = { unstable_runtimeJS: false };
// Rendered per request so the snippets carry this deployment's public origin, with the docs' caching (site/cacheable.ts).
export const getServerSideProps = originProps;

export default function Recipes({ origin }: OriginProps) {
  const list = recipes(origin);
  return (
    <>
      <PageHead
        title="Recipes"
        description="Gold and silver prices in Google Sheets, Excel, Home Assistant, Portfolio Performance, Grafana and the shell."
      />
      <h1>Recipes</h1>
      <p className="lead">
        The price and its history in the tools you already use, with this service&apos;s address filled in. <code>/api/v1/price.txt</code> answers one
        number and a newline, exactly the figure of <a href="/docs/api#getSpot">spot</a> (<code>metal</code> gold, silver, platinum or palladium;{' '}
        <code>currency</code> and <code>unit</code> as spot; <code>karat</code> for gold), with its state in the <code>X-Data-State</code> header:{' '}
        <code>stale</code> is the last real price, and a metal never seen answers 503 <code>unavailable</code> rather than a number. Every URL and
        every field these recipes read is checked against the running service by its tests.
      </p>
      <ul className="toc">
        {list.map((r) => (
          <li key={r.id}>
            <a href={`#${r.id}`}>{r.title}</a>
          </li>
        ))}
      </ul>
      {list.map((r) => (
        <section key={r.id} aria-labelledby={r.id}>
          <h2 id={r.id}>{r.title}</h2>
          <p>{r.intro}</p>
          {r.snippets.map((s) => (
            <Code key={s.title} title={s.title}>
              {s.code}
            </Code>
          ))}
          {/* Long paths wrap rather than widen a phone's page. */}
          <p className="muted" style={{ overflowWrap: 'anywhere' }}>
            Reads{' '}
            {r.calls.map((c, i) => (
              <span key={c.path}>
                {i > 0 ? '; ' : ''}
                <code>{c.path}</code>
                {c.reads.length ? (
                  <>
                    {' '}
                    ({c.format === 'csv' ? 'columns' : 'fields'} <code>{c.reads.join(', ')}</code>)
                  </>
                ) : (
                  ' (the number)'
                )}
              </span>
            ))}
            .
          </p>
        </section>
      ))}
    </>
  );
}
