import { WIDGETS, type WidgetName } from '@/widgets/kinds';

// The widget builder's output, from the chosen values: the page renders it for the defaults and the
// builder's script (site/scripts/builder.ts) recomputes it on every change, with this one function.

/** The options each kind of widget takes besides currency, unit, theme and locale, in snippet order. */
export const KIND_FIELDS: Record<WidgetName, readonly string[]> = {
  price: ['metal', 'silver', 'ratio'],
  chart: ['symbol', 'range'],
  converter: ['metal', 'amount', 'direction'],
};

export const BUILDER_DEFAULTS: Record<string, string> = {
  kind: 'price',
  currency: 'USD',
  unit: 'oz',
  theme: 'auto',
  locale: 'en-US',
  metal: 'gold',
  silver: '1',
  ratio: '1',
  symbol: 'xau',
  range: '1mo',
  amount: '1000',
  direction: 'money-to-gold',
  live: '1',
};

export interface Snippets {
  src: string;
  iframe: string;
  script: string;
  height: number;
}

export function snippets(origin: string, values: Record<string, string>): Snippets {
  const kind = values.kind as WidgetName;
  const options: Record<string, string> = {};
  for (const field of ['currency', 'unit', 'theme', 'locale', ...KIND_FIELDS[kind], 'live']) {
    const v = values[field] ?? '';
    // Live is the default; only its opt-out (`live=0`, poll instead) goes into the snippet.
    if (field === 'live') {
      if (v === '0') options.live = '0';
      continue;
    }
    // Defaults a widget assumes anyway stay out of the snippet: gold as the metal, an empty or zero value.
    if (v === '' || v === '0' || (field === 'metal' && v === 'gold')) continue;
    options[field] = v;
  }
  const { height } = WIDGETS[kind];
  const src = `${origin}/widgets/${kind}?${new URLSearchParams(options)}`;
  const iframe = `<iframe src="${src}" title="Gold ${kind}" loading="lazy" style="width:100%;max-width:480px;height:${height}px;border:0"></iframe>`;
  const data = Object.entries(options)
    .map(([k, v]) => ` data-${k}="${v}"`)
    .join('');
  const script = `<script src="${origin}/embed.js" data-widget="${kind}"${data} async></script>`;
  return { src, iframe, script, height };
}
