'use client';
import { useMemo, useState } from 'react';
import { CHART_SYMBOLS, INSTRUMENTS } from '@/lib/chart-catalog';
import { METALS } from '@/lib/metals';
import { UNIT_LIST } from '@/lib/units';
import { CHART_WIDGET_RANGES, WIDGET_NAMES, WIDGETS, type WidgetName } from '@/widgets/kinds';

// Builds the iframe and script-tag snippets for the chosen options, with a live preview.

/** One locale per language the widgets speak (any other locale gets English words with its own number formats). */
const LOCALES = [
  ['en-US', 'English'],
  ['en-GB', 'English'],
  ['de-DE', 'Deutsch'],
  ['fr-FR', 'Français'],
  ['es-ES', 'Español'],
  ['it-IT', 'Italiano'],
  ['pt-BR', 'Português'],
  ['tr-TR', 'Türkçe'],
  ['ar-AE', 'العربية'],
  ['hi-IN', 'हिन्दी'],
  ['zh-CN', '中文'],
  ['ja-JP', '日本語'],
] as const;

export function WidgetBuilder({ origin, currencies }: { origin: string; currencies: string[] }) {
  const [kind, setKind] = useState<WidgetName>('price');
  const [currency, setCurrency] = useState('USD');
  const [unit, setUnit] = useState('oz');
  const [theme, setTheme] = useState('auto');
  const [locale, setLocale] = useState('en-US');
  const [extra, setExtra] = useState<Record<string, string>>({
    metal: 'gold',
    silver: '1',
    ratio: '1',
    symbol: 'xau',
    range: '1mo',
    amount: '1000',
    direction: 'money-to-gold',
  });

  const options = useMemo(() => {
    const o: Record<string, string> = { currency, unit, theme, locale };
    // gold is the default metal: left out of the snippet.
    const metal = extra.metal === 'gold' ? '' : extra.metal;
    if (kind === 'price') Object.assign(o, { metal, silver: extra.silver, ratio: extra.ratio });
    if (kind === 'chart') Object.assign(o, { symbol: extra.symbol, range: extra.range });
    if (kind === 'converter') Object.assign(o, { metal, amount: extra.amount, direction: extra.direction });
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== '0'));
  }, [kind, currency, unit, theme, locale, extra]);

  const src = `${origin}/widgets/${kind}?${new URLSearchParams(options)}`;
  const iframe = `<iframe src="${src}" title="Gold ${kind}" loading="lazy" style="width:100%;max-width:480px;height:${WIDGETS[kind].height}px;border:0"></iframe>`;
  const dataAttrs = Object.entries(options)
    .map(([k, v]) => ` data-${k}="${v}"`)
    .join('');
  const script = `<script src="${origin}/embed.js" data-widget="${kind}"${dataAttrs} async></script>`;
  const set = (k: string) => (e: { target: { value: string } }) => setExtra({ ...extra, [k]: e.target.value });

  return (
    <div className="grid2">
      <form className="card" onSubmit={(e) => e.preventDefault()} aria-label="Widget options">
        <label htmlFor="b-kind">Widget</label>
        <select id="b-kind" value={kind} onChange={(e) => setKind(e.target.value as WidgetName)}>
          {WIDGET_NAMES.map((k) => (
            <option key={k} value={k}>
              {WIDGETS[k].title}
            </option>
          ))}
        </select>
        <label htmlFor="b-currency">Currency</label>
        <select id="b-currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label htmlFor="b-unit">Unit</label>
        <select id="b-unit" value={unit} onChange={(e) => setUnit(e.target.value)}>
          {UNIT_LIST.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
        {kind === 'price' || kind === 'converter' ? (
          <>
            <label htmlFor="b-metal">Metal</label>
            <select id="b-metal" value={extra.metal} onChange={set('metal')}>
              {METALS.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name.toLowerCase()}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <label htmlFor="b-theme">Theme</label>
        <select id="b-theme" value={theme} onChange={(e) => setTheme(e.target.value)}>
          <option value="auto">auto (follows the reader)</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
        <label htmlFor="b-locale">Language and locale</label>
        <select id="b-locale" value={locale} onChange={(e) => setLocale(e.target.value)}>
          {LOCALES.map(([l, name]) => (
            <option key={l} value={l}>
              {l} ({name})
            </option>
          ))}
        </select>
        {kind === 'price' ? (
          <>
            <label htmlFor="b-silver">Silver</label>
            <select id="b-silver" value={extra.silver} onChange={set('silver')}>
              <option value="1">show</option>
              <option value="0">hide</option>
            </select>
            <label htmlFor="b-ratio">Gold/silver ratio</label>
            <select id="b-ratio" value={extra.ratio} onChange={set('ratio')}>
              <option value="1">show</option>
              <option value="0">hide</option>
            </select>
          </>
        ) : null}
        {kind === 'chart' ? (
          <>
            <label htmlFor="b-symbol">Asset</label>
            <select id="b-symbol" value={extra.symbol} onChange={set('symbol')}>
              {CHART_SYMBOLS.map((s) => (
                <option key={s} value={s}>
                  {s} ({INSTRUMENTS[s].name})
                </option>
              ))}
            </select>
            <label htmlFor="b-range">Range</label>
            <select id="b-range" value={extra.range} onChange={set('range')}>
              {CHART_WIDGET_RANGES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </>
        ) : null}
        {kind === 'converter' ? (
          <>
            <label htmlFor="b-amount">Default amount</label>
            <input id="b-amount" type="number" min="0" value={extra.amount} onChange={set('amount')} />
            <label htmlFor="b-direction">Direction</label>
            <select id="b-direction" value={extra.direction} onChange={set('direction')}>
              <option value="money-to-gold">money → gold</option>
              <option value="gold-to-money">gold → money</option>
            </select>
          </>
        ) : null}
      </form>
      <div>
        <label htmlFor="b-script">One script tag</label>
        <textarea id="b-script" readOnly value={script} data-snippet="script" />
        <label htmlFor="b-iframe">Or an iframe</label>
        <textarea id="b-iframe" readOnly value={iframe} data-snippet="iframe" />
        <p className="muted">Preview</p>
        <iframe key={src} src={src} title={`Gold ${kind} preview`} style={{ width: '100%', height: WIDGETS[kind].height, border: 0 }} />
      </div>
    </div>
  );
}
