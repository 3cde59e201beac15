import type { ReactNode } from 'react';
import { CHART_SYMBOLS, INSTRUMENTS } from '@/lib/reference/instruments';
import { METALS } from '@/lib/reference/metals';
import { UNIT_LIST } from '@/lib/reference/units';
import { CHART_WIDGET_RANGES, WIDGET_NAMES, WIDGETS, type WidgetName } from '@/widgets/kinds';
import { BUILDER_DEFAULTS as D, KIND_FIELDS, snippets } from './builder-snippets';
import { PageScript } from './page-script';

// The widget builder: a form whose choices make the iframe and script-tag snippets, with a live preview.
// Rendered here with the defaults' snippets; its script (site/scripts/builder.ts) keeps them in step.

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

/** Fields only some kinds of widget take: shown for those kinds, hidden (and left out of the snippet) for the others. */
function ForKinds({ field, children }: { field: string; children: ReactNode }) {
  const kinds = WIDGET_NAMES.filter((k) => KIND_FIELDS[k].includes(field));
  return (
    <div data-kinds={kinds.join(' ')} hidden={!kinds.includes(D.kind as WidgetName)}>
      {children}
    </div>
  );
}

export function WidgetBuilder({ origin, currencies }: { origin: string; currencies: string[] }) {
  const first = snippets(origin, D);
  return (
    <div className="grid2" id="widget-builder" data-origin={origin}>
      <form className="card" aria-label="Widget options">
        <label htmlFor="b-kind">Widget</label>
        <select id="b-kind" name="kind" defaultValue={D.kind}>
          {WIDGET_NAMES.map((k) => (
            <option key={k} value={k}>
              {WIDGETS[k].title}
            </option>
          ))}
        </select>
        <label htmlFor="b-currency">Currency</label>
        <select id="b-currency" name="currency" defaultValue={D.currency}>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label htmlFor="b-unit">Unit</label>
        <select id="b-unit" name="unit" defaultValue={D.unit}>
          {UNIT_LIST.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
        <ForKinds field="metal">
          <label htmlFor="b-metal">Metal</label>
          <select id="b-metal" name="metal" defaultValue={D.metal}>
            {METALS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name.toLowerCase()}
              </option>
            ))}
          </select>
        </ForKinds>
        <label htmlFor="b-theme">Theme</label>
        <select id="b-theme" name="theme" defaultValue={D.theme}>
          <option value="auto">auto (follows the reader)</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
        <label htmlFor="b-locale">Language and locale</label>
        <select id="b-locale" name="locale" defaultValue={D.locale}>
          {LOCALES.map(([l, name]) => (
            <option key={l} value={l}>
              {l} ({name})
            </option>
          ))}
        </select>
        <ForKinds field="silver">
          <label htmlFor="b-silver">Silver</label>
          <select id="b-silver" name="silver" defaultValue={D.silver}>
            <option value="1">show</option>
            <option value="0">hide</option>
          </select>
        </ForKinds>
        <ForKinds field="ratio">
          <label htmlFor="b-ratio">Gold/silver ratio</label>
          <select id="b-ratio" name="ratio" defaultValue={D.ratio}>
            <option value="1">show</option>
            <option value="0">hide</option>
          </select>
        </ForKinds>
        <ForKinds field="symbol">
          <label htmlFor="b-symbol">Asset</label>
          <select id="b-symbol" name="symbol" defaultValue={D.symbol}>
            {CHART_SYMBOLS.map((s) => (
              <option key={s} value={s}>
                {s} ({INSTRUMENTS[s].name})
              </option>
            ))}
          </select>
        </ForKinds>
        <ForKinds field="range">
          <label htmlFor="b-range">Range</label>
          <select id="b-range" name="range" defaultValue={D.range}>
            {CHART_WIDGET_RANGES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </ForKinds>
        <ForKinds field="amount">
          <label htmlFor="b-amount">Default amount</label>
          <input id="b-amount" name="amount" type="number" min="0" defaultValue={D.amount} />
        </ForKinds>
        <ForKinds field="direction">
          <label htmlFor="b-direction">Direction</label>
          <select id="b-direction" name="direction" defaultValue={D.direction}>
            <option value="money-to-gold">money → gold</option>
            <option value="gold-to-money">gold → money</option>
          </select>
        </ForKinds>
        <label htmlFor="b-live">Updates</label>
        <select id="b-live" name="live" defaultValue={D.live}>
          <option value="1">live: pushed as the price changes</option>
          <option value="0">polled instead (live=0)</option>
        </select>
      </form>
      <div>
        <label htmlFor="b-script">One script tag</label>
        <textarea id="b-script" readOnly defaultValue={first.script} data-snippet="script" />
        <label htmlFor="b-iframe">Or an iframe</label>
        <textarea id="b-iframe" readOnly defaultValue={first.iframe} data-snippet="iframe" />
        <p className="muted">Preview</p>
        <iframe
          id="b-preview"
          loading="lazy"
          src={first.src}
          title="Gold widget preview"
          style={{ width: '100%', height: first.height, border: 0 }}
        />
      </div>
      <PageScript name="builder" />
    </div>
  );
}
