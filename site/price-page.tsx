import Head from 'next/head';
import type { CSSProperties, ReactNode } from 'react';
import { KARAT_KEYS, KARATS, purity } from '@/lib/reference/karats';
import { METALS } from '@/lib/reference/metals';
import { UNITS } from '@/lib/reference/units';
import { fill, money, number, percent, priceDecimals, share, signedMoney, unitWord } from '@/widgets/format';
import { html } from '@/widgets/html';
import { LANGUAGES } from '@/widgets/i18n';
import { LANGUAGE_NAMES, pagePath } from './price-choice';
import { day, headlineChars, isLive, textsOf, valuesOf } from './price-figures';
import type { PricePageProps } from './price-page-data';
import { PageHead } from './layout';
import { PageScript } from './page-script';
import { PricePerformance } from './price-performance';
import { PriceValue } from './price-value';
import { PriceYears } from './price-years';

// A price page (decisions §27), server-rendered and readable with scripts off: the price (the page's largest
// paint), its freshness and change, the session, every metal and the karats in the same currency and unit, what
// metal is worth (site/price-value.tsx), the value on a date and the pickers (plain GET forms). Each figure the
// script keeps live carries `data-f` (its words, site/price-figures.ts) and `data-v` (its number, as spot serves it).

/** What the page's script is told: its words and what it shows (JSON in the page). */
export interface PageConfig {
  metal: string;
  currency: string;
  unit: string;
  locale: string;
  lang: string;
  words: PricePageProps['words'];
  figures: PricePageProps['figures'];
  usdOz: number | null;
  path: string;
}

export function PricePage(props: PricePageProps & { range: string }) {
  const { metal, currency, unit, figures: f, words: w, origin, path, language } = props;
  const loc = w.locale;
  const metalWord = w.t[metal];
  const unitName = unitWord(w.t, unit, 'unit');
  // No price ever seen: the page says so where the price goes, and shows no number anywhere.
  const texts: Record<string, string> = f ? textsOf(f, w, props.now, 'UTC') : { price: w.t.priceUnavailable, state: w.t.noPrice };
  const values = f ? valuesOf(f) : {};
  /** An element the script rewrites: its words and its number. */
  const fig = (name: string, className?: string): ReactNode => (
    <span data-f={name} data-v={values[name] ?? ''} className={className}>
      {texts[name] ?? '—'}
    </span>
  );
  /** A labelled figure of the price's facts (session high and low, bid and ask). */
  const fact = (label: string, name: string): ReactNode => (
    <div>
      <dt>{label}</dt>
      <dd>{fig(name)}</dd>
    </div>
  );
  const langQuery = language.asked ? `?lang=${language.lang}` : '';
  const canonical = `${origin}${path}${langQuery}`;
  const priceText = texts.price ?? w.t.priceUnavailable;
  const title = fill(w.p.title, { metal: metalWord, price: priceText, unit: unitName, currency });
  const description = fill(w.p.description, {
    metal: metalWord,
    price: priceText,
    unit: unitName,
    currency,
    change: f?.change ? ` (${percent(f.change.pct, loc)})` : '',
  });
  const image = `${origin}/og/${metal}/${currency.toLowerCase()}/${unit}.png`;
  const config: PageConfig = { metal, currency, unit, locale: loc, lang: w.lang, words: w, figures: f, usdOz: props.usdOz, path };
  const metric = unit === 'gram' || unit === 'kg';
  const dp = priceDecimals(unit);
  const d = props.date;
  const hidden = { type: 'hidden' as const };
  return (
    <>
      <PageHead title={title} description={description} />
      <Head>
        <link rel="canonical" href={canonical} />
        {LANGUAGES.map((l) => (
          <link key={l} rel="alternate" hrefLang={l} href={`${origin}${path}?lang=${l}`} />
        ))}
        <link rel="alternate" hrefLang="x-default" href={`${origin}${path}`} />
        <meta property="og:type" content="website" />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={canonical} />
        <meta property="og:image" content={image} />
        <meta property="og:image:width" content="1200" />
        <meta property="og:image:height" content="630" />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={title} />
        <meta name="twitter:description" content={description} />
        <meta name="twitter:image" content={image} />
        <meta name="stream-heartbeat-s" content={String(props.heartbeatS)} />
      </Head>
      <article className="pp" data-metal={metal} data-currency={currency} data-unit={unit}>
        <h1>{fill(w.p.h1, { metal: metalWord, currency, unit: unitName })}</h1>
        <section className="card pp-now" aria-labelledby="pp-price">
          {/* Its size fits its card from the server on: the script rewrites `--chars` with the text (site/globals.css). */}
          <p className="price" id="pp-price" style={{ margin: '0 0 4px', '--chars': headlineChars(priceText) } as CSSProperties}>
            {fig('price')}
          </p>
          <p style={{ margin: 0 }}>
            {fig('state', f && isLive(f) ? 'pill' : 'badge')} {fig('as-of', 'muted')}
          </p>
          <p style={{ margin: '6px 0' }}>
            <span data-f="change" data-v={values.change ?? ''} data-pct={values['change-pct'] ?? ''} className={texts['change-dir'] ?? 'flat'}>
              {texts.change ?? w.p.noChange}
            </span>
          </p>
          <p data-f="why" data-v={values.why ?? ''} data-fx={values['why-fx'] ?? ''} className="muted pp-why">
            {texts.why}
          </p>
          <dl className="pp-facts">
            <div>
              <dt data-f="prev-label">{texts['prev-label'] ?? fill(w.p.previousClose, { date: '—' })}</dt>
              <dd>{fig('prev')}</dd>
            </div>
            {fact(w.p.sessionHigh, 'high')}
            {fact(w.p.sessionLow, 'low')}
            {metal === 'gold' && (
              <>
                {fact(w.p.bid, 'bid')}
                {fact(w.p.ask, 'ask')}
              </>
            )}
          </dl>
          <p className="muted pp-market" style={{ margin: 0 }}>
            {fig('market')}
          </p>
        </section>

        <section
          id="chart"
          className="card pp-chart"
          data-metal={metal}
          data-currency={currency}
          data-unit={unit}
          data-lang={w.lang}
          data-range={props.range}
          data-plan={JSON.stringify(props.chartPlan)}
          data-fx-rate={f?.fxRate ?? ''}
          aria-label={fill(w.t.chartTitle, { name: metalWord })}
        >
          <noscript>
            <p className="muted" style={{ margin: 0 }}>
              {w.t.chartNoscript}
            </p>
          </noscript>
        </section>

        <PricePerformance moves={props.moves} metal={metal} currency={currency} unit={unit} words={w} />

        <section aria-labelledby="pp-metals">
          <h2 id="pp-metals">{fill(w.p.allMetals, { currency, unit: unitName })}</h2>
          <table>
            <tbody>
              {METALS.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    <a href={pagePath(m.id, currency, unit) + langQuery} aria-current={m.id === metal ? 'page' : undefined}>
                      {w.t[m.id]}
                    </a>
                  </th>
                  <td>{fig(`m-${m.id}`)}</td>
                  <td>{fig(`mc-${m.id}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        {metal === 'gold' && (
          <section aria-labelledby="pp-karats">
            <h2 id="pp-karats">{w.p.karats}</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">{w.t.purity}</th>
                  <th scope="col">{unitWord(w.t, unit, 'per')}</th>
                  {metric && <th scope="col">{w.p.per10g}</th>}
                </tr>
              </thead>
              <tbody>
                {KARATS.map((k, i) => (
                  <tr key={k}>
                    <th scope="row">
                      {fill(w.t.karat, { k: number(k, loc, 0) })} ({share(purity(k), loc)})
                    </th>
                    <td>{fig(`k-${KARAT_KEYS[i]}`)}</td>
                    {metric && <td>{fig(`t-${KARAT_KEYS[i]}`)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}

        <PriceValue {...props.worth} page={{ metal, currency, words: w }} path={path} lang={language.asked ? language.lang : null} />

        <section aria-labelledby="pp-date">
          <h2 id="pp-date">{w.p.onDate}</h2>
          <form method="get" action={path} className="pp-form">
            {language.asked && <input {...hidden} name="lang" value={language.lang} />}
            <div>
              <label htmlFor="pp-date-in">{w.p.date}</label>
              <input
                id="pp-date-in"
                name="date"
                type="date"
                min="1960-01-01"
                max={new Date(props.now).toISOString().slice(0, 10)}
                defaultValue={d?.asked ?? ''}
              />
            </div>
            <div className="go">
              <button type="submit">{w.p.show}</button>
            </div>
          </form>
          {d && (
            <div id="date-value" data-series={d.value?.series ?? ''} data-d={d.value?.d ?? ''} data-v={d.value?.value ?? ''}>
              {d.value ? (
                <>
                  <p>
                    {fill(w.p.dateValue, {
                      price: money(d.value.value, currency, loc, dp),
                      date: day(d.value.d, loc),
                      series: d.value.series === 'spot' ? w.t.lineSpot : d.value.series === 'futures' ? w.t.lineFutures : w.t.lineMonthly,
                    })}
                  </p>
                  {d.value.change !== null && d.value.pct !== null && (
                    <p data-f="since" data-v={d.value.change}>
                      {fill(w.p.sinceThen, { change: signedMoney(d.value.change, currency, loc, dp), pct: percent(d.value.pct, loc) })}
                    </p>
                  )}
                  <p className="muted">{d.value.source}</p>
                </>
              ) : (
                <p>{fill(w.p.noDate, { date: day(d.asked, loc) })}</p>
              )}
            </div>
          )}
        </section>

        <PriceYears moves={props.moves} metal={metal} currency={currency} unit={unit} words={w} />

        {/* With ALERTS=off the page offers no alert: no form, and so no alerts script (its chunk loads only for #notify). */}
        {props.alerts && (
          <section id="notify" className="pp-notify" aria-labelledby="pp-notify">
            {/* "Notify me" (decisions §28): the page's alerts script (site/scripts/price-alerts.ts, loaded when the section
                comes near) enables the form; with scripts off, or without Web Push, the note says why it cannot work. */}
            <h2 id="pp-notify">{w.p.notifyTitle}</h2>
            <p className="muted">{w.p.notifyLead}</p>
            <form id="notify-form" className="pp-form">
              <div>
                <label htmlFor="nt-level">{fill(w.p.notifyLevel, { currency, unit: unitWord(w.t, unit, 'per') })}</label>
                <input
                  id="nt-level"
                  name="level"
                  type="number"
                  inputMode="decimal"
                  min="0"
                  step="any"
                  required
                  placeholder={values.price === undefined || values.price === null ? undefined : String(values.price)}
                />
              </div>
              <div>
                <label htmlFor="nt-dir">{w.p.notifyWhen}</label>
                <select id="nt-dir" name="dir" defaultValue="above">
                  <option value="above">{w.p.notifyAbove}</option>
                  <option value="below">{w.p.notifyBelow}</option>
                </select>
              </div>
              <div className="go">
                <button type="submit" disabled>
                  {w.p.notifyButton}
                </button>
              </div>
            </form>
            <p id="nt-msg" role="status" aria-live="polite">
              {w.p.notifyNeedsScripts}
            </p>
            <div id="nt-yours" hidden>
              <h3 id="nt-yours-h">{w.p.notifyYours}</h3>
              <ul id="nt-list" aria-labelledby="nt-yours-h" />
            </div>
          </section>
        )}

        <section aria-labelledby="pp-pick">
          <h2 id="pp-pick">{w.p.pick}</h2>
          <form method="get" action="/pick" className="pp-form" id="pick">
            <input {...hidden} name="metal" value={metal} />
            <div>
              <label htmlFor="pk-c">{w.t.currency}</label>
              <input
                id="pk-c"
                name="currency"
                list="pk-codes"
                defaultValue={currency}
                autoComplete="off"
                size={6}
                maxLength={3}
                pattern="[A-Za-z]{3}"
              />
              <datalist id="pk-codes" dangerouslySetInnerHTML={{ __html: codeOptions(props.codes) }} />
            </div>
            <div>
              <label htmlFor="pk-u">{w.t.weight}</label>
              <select id="pk-u" name="unit" defaultValue={unit}>
                {UNITS.map((u) => (
                  <option key={u} value={u}>
                    {unitWord(w.t, u, 'unit')}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="pk-l">{w.p.language}</label>
              <select id="pk-l" name="lang" defaultValue={language.lang}>
                {LANGUAGES.map((l) => (
                  <option key={l} value={l} lang={l}>
                    {LANGUAGE_NAMES[l]}
                  </option>
                ))}
              </select>
            </div>
            <div className="go">
              <button type="submit">{w.p.show}</button>
            </div>
          </form>
        </section>
      </article>
      <script
        type="application/json"
        id="pp-config"
        // JSON in a script element: `<` written as its escape, so no text in it can end the element.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(config).replace(/</g, '\\u003c') }}
      />
      <PageScript name="price-page" />
      <PageScript name="price-chart" />
    </>
  );
}

/** The currency picker's options, escaped, made once per list of codes (160-odd elements React would build on every render). */
let options = { codes: '', html: '' };
function codeOptions(codes: string[]): string {
  const key = codes.join();
  if (options.codes !== key) options = { codes: key, html: html`${codes.map((c) => html`<option value="${c}"></option>`)}`.value };
  return options.html;
}
