import type { Holding } from '@/lib/prices/melt';
import { MAX_QTY, MAX_WEIGHT } from '@/lib/schemas/value';
import { UNITS } from '@/lib/reference/units';
import { purities, purityOption } from '@/widgets/converter';
import { fill, number, unitWord, upTo } from '@/widgets/format';
import { coinName, moneyTexts, valueText, valueTexts, weightText, type WorthPage, type WorthTexts } from './price-value-figures';
import type { WorthProps } from './price-value-data';

// "What your metal is worth" (decisions §31), server-rendered and answered without script: three plain GET forms (a
// weight at a purity, coins, an amount of money) that the server answers in the section's answer, the metal value of
// a set of weights and of the metal's bullion coins. Every value carries `data-f` and `data-v` (value's figure) and, to
// follow the price, `data-h`: what it values (site/scripts/price-value.ts). The words say metal value, never a price.

export function PriceValue(props: WorthProps & { page: WorthPage; path: string; lang: string | null }) {
  const { page, form, path } = props;
  const { t, p, locale } = page.words;
  const metal = page.metal;
  // The forms answer at the answer, so a page answered without script opens on it.
  const action = `${path}#worth-answer`;
  const lang = props.lang && <input type="hidden" name="lang" value={props.lang} />;
  const offered = purities(metal);
  const purityList = (asked: string) => (offered.includes(asked) ? offered : [asked, ...offered]);
  const unitOptions = UNITS.map((u) => (
    <option key={u} value={u}>
      {unitWord(t, u, 'unit')}
    </option>
  ));
  const purityOptions = (asked: string) =>
    purityList(asked).map((o) => (
      <option key={o} value={o}>
        {purityOption(o, t, locale)}
      </option>
    ));
  const optional = fill(p.worthQuote, { currency: page.currency });

  const ask = props.ask;
  let texts: WorthTexts;
  let v: number | null = null;
  if (props.error)
    texts = { main: fill(p[props.error], { max: number(props.error === 'worthBadQty' ? MAX_QTY : MAX_WEIGHT, locale, 0) }), fine: '', quote: '' };
  else if (!ask || !props.priced) texts = { main: t.noConversion, fine: '', quote: '' };
  else if (ask.kind === 'money') {
    texts = moneyTexts(ask, props.bought!, page);
    v = props.bought;
  } else {
    texts = valueTexts(ask, props.figures!, page);
    v = props.figures!.melt_value;
  }

  return (
    <section id="worth" aria-labelledby="pp-worth">
      <h2 id="pp-worth">{p.worthTitle}</h2>
      <p>
        {p.worthLead} <strong>{t.meltNote}</strong>
      </p>
      <div
        id="worth-answer"
        className="card pp-worth"
        role="status"
        aria-live="polite"
        data-ask={ask && !props.error ? JSON.stringify(ask) : ''}
        data-kind={props.error ? 'error' : (ask?.kind ?? '')}
      >
        <p className="pp-worth-main">
          <span data-f="worth" data-v={v ?? ''}>
            {texts.main}
          </span>
        </p>
        <p className="muted" data-f="worth-fine">
          {texts.fine}
        </p>
        <p data-f="worth-quote" data-v={props.figures?.quote?.premium_pct ?? ''}>
          {texts.quote}
        </p>
      </div>

      <h3 id="wv-h">{p.worthWeightForm}</h3>
      <form method="get" action={action} id="worth-weight" className="pp-form" aria-labelledby="wv-h">
        {lang}
        <div>
          <label htmlFor="wv-w">{p.worthWeight}</label>
          <input id="wv-w" name="weight" type="number" inputMode="decimal" min="0" max={MAX_WEIGHT} step="any" required defaultValue={form.weight} />
        </div>
        <div>
          <label htmlFor="wv-u">{p.worthUnit}</label>
          <select id="wv-u" name="unit" defaultValue={form.unit}>
            {unitOptions}
          </select>
        </div>
        <div>
          <label htmlFor="wv-p">{t.purity}</label>
          <select id="wv-p" name="fineness" defaultValue={form.purity}>
            {purityOptions(form.purity)}
          </select>
        </div>
        <div>
          <label htmlFor="wv-q">{optional}</label>
          <input id="wv-q" name="quote" type="number" inputMode="decimal" min="0" step="any" defaultValue={form.quote} />
        </div>
        <div className="go">
          <button type="submit">{p.worthShow}</button>
        </div>
      </form>

      {props.coins.length > 0 && (
        <>
          <h3 id="wc-h">{p.worthCoinForm}</h3>
          <form method="get" action={action} id="worth-coins" className="pp-form" aria-labelledby="wc-h">
            {lang}
            <div>
              <label htmlFor="wc-i">{p.worthCoin}</label>
              <select id="wc-i" name="item" defaultValue={form.item}>
                {props.coins.map((c) => (
                  <option key={c.id} value={c.id} data-h={JSON.stringify({ fine_oz: c.fine_oz, fine_g: c.fine_g })}>
                    {coinName(c.id, p)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="wc-n">{p.worthQty}</label>
              <input id="wc-n" name="qty" type="number" inputMode="numeric" min="1" max={MAX_QTY} step="1" required defaultValue={form.qty} />
            </div>
            <div>
              <label htmlFor="wc-q">{optional}</label>
              <input id="wc-q" name="quote" type="number" inputMode="decimal" min="0" step="any" defaultValue={form.coinQuote} />
            </div>
            <div className="go">
              <button type="submit">{p.worthShow}</button>
            </div>
          </form>
        </>
      )}

      <h3 id="wm-h">{p.worthMoneyForm}</h3>
      <form method="get" action={action} id="worth-money" className="pp-form" aria-labelledby="wm-h">
        {lang}
        <div>
          <label htmlFor="wm-m">
            {p.money} ({page.currency})
          </label>
          <input id="wm-m" name="money" type="number" inputMode="decimal" min="0" step="any" required defaultValue={form.money} />
        </div>
        <div>
          <label htmlFor="wm-u">{p.worthUnit}</label>
          <select id="wm-u" name="unit" defaultValue={form.moneyUnit}>
            {unitOptions}
          </select>
        </div>
        <div>
          <label htmlFor="wm-p">{t.purity}</label>
          <select id="wm-p" name="fineness" defaultValue={form.moneyPurity}>
            {purityOptions(form.moneyPurity)}
          </select>
        </div>
        <div className="go">
          <button type="submit">{p.show}</button>
        </div>
      </form>

      <h3 id="wq-h">{p.worthByWeight}</h3>
      <table aria-labelledby="wq-h">
        <thead>
          <tr>
            <th scope="col">{p.worthWeight}</th>
            <th scope="col">{p.worthValue}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={`${r.weight}-${r.unit}`}>
              <th scope="row">{weightText(r.weight, r.unit, page.words)}</th>
              <td>{figure(`q-${r.weight}-${r.unit}`, r.value, { weight: r.weight, unit: r.unit, fineness: 1 }, page)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {props.coins.length > 0 && (
        <>
          <h3 id="wk-h">{p.worthCoins}</h3>
          <table aria-labelledby="wk-h">
            <thead>
              <tr>
                <th scope="col">{p.worthCoin}</th>
                <th scope="col">{p.worthFineMetal}</th>
                <th scope="col">{p.worthValue}</th>
              </tr>
            </thead>
            <tbody>
              {props.coins.map((c) => (
                <tr key={c.id}>
                  <th scope="row">{coinName(c.id, p)}</th>
                  <td>
                    {upTo(c.fine_oz, locale, 6)} {t.abbrOz}
                  </td>
                  <td>{figure(`coin-${c.id}`, c.value, { coin: { fine_oz: c.fine_oz, fine_g: c.fine_g }, qty: 1 }, page)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** A metal value the script keeps on the price: its name, value's figure and what it values. */
function figure(name: string, value: number | null, holding: Holding, page: WorthPage) {
  return (
    <span data-f={name} data-v={value ?? ''} data-h={JSON.stringify(holding)}>
      {value === null ? '—' : valueText(value, page)}
    </span>
  );
}
