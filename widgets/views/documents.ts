import { VERSION } from '../../lib/core/version';
import type { ViewDocuments, ViewName } from '../../lib/mcp/views';
import { CHART_CSS } from '../chart';
import { html, jsonScript, SafeHtml } from '../html';
import { LANGUAGES, STRINGS, textFor, type Strings } from '../i18n';
import { CSS } from '../page';
import scripts from './scripts.json';
import { CHART_WORDS, PRICE_WORDS, type ViewConfig } from './words';

// The MCP Apps views as the host receives them (resources/read of ui://gold/price and
// ui://gold/chart): each one HTML5 document holding everything it needs, the widgets' stylesheet,
// the skeleton its script fills, the widgets' words in every language and the script itself
// (scripts/build-views.mjs), inline. Nothing in it names another document, so it loads nothing
// from any origin and runs under the host's default policy (`connect-src 'none'`).

/** The skeleton of each view: the price widget's and the chart widget's fields (`data-f`), filled once the host hands over a result. */
const BODY: Record<ViewName, SafeHtml> = {
  price: html`<main class="w" data-f="main">
<div class="h"><span data-f="head"></span><span class="badge" data-f="badge" hidden></span></div>
<div class="big" data-f="price" aria-live="polite"></div>
<div class="row"><span data-f="change" hidden></span></div>
<div class="row" data-f="market" hidden></div>
<div class="foot"><span data-f="fresh"></span><span>Gold API</span></div>
</main>`,
  chart: html`<main class="w" data-f="main">
<div class="h"><span data-f="head"></span><span class="badge" data-f="badge" hidden></span></div>
<div class="big" data-f="price"></div>
<div class="line" data-f="line" hidden></div>
<div class="ranges" role="group" data-f="ranges" hidden></div>
<div class="chart" data-f="chart"></div>
<div class="row" data-f="legend" hidden></div>
<div class="row"><span data-f="cross" aria-live="polite"></span></div>
<div class="foot"><span data-f="fresh"></span><span>Gold API</span></div>
</main>`,
};

const WORDS: Record<ViewName, readonly (keyof Strings)[]> = { price: PRICE_WORDS, chart: CHART_WORDS };
const TITLE: Record<ViewName, string> = { price: STRINGS.en.priceTitle, chart: STRINGS.en.chartTitle.replace('{name}', STRINGS.en.gold) };

/** Each language's words for a view, and its direction. */
function viewConfig(name: ViewName): ViewConfig {
  const text = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, { dir: textFor(lang).dir, t: Object.fromEntries(WORDS[name].map((k) => [k, STRINGS[lang][k]])) }]),
  );
  return { version: VERSION, text };
}

/** One view's whole document; its script is the built one, the last thing in the body so the skeleton is there when it runs. */
export function viewDocument(name: ViewName): string {
  return html`<!doctype html>
<html lang="en" dir="ltr" data-theme="auto">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${TITLE[name]}</title>
<style>${new SafeHtml(CSS + (name === 'chart' ? CHART_CSS : ''))}</style>
</head>
<body>
${BODY[name]}
${jsonScript('gw-config', viewConfig(name))}
<script>${new SafeHtml((scripts as Record<ViewName, string>)[name])}</script>
</body>
</html>`.value;
}

/** Both views, rendered once per process: they change only with a build. */
export const VIEW_DOCUMENTS: ViewDocuments = { price: viewDocument('price'), chart: viewDocument('chart') };
