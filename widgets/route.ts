import type { CacheRoute } from '../lib/http/cache';
import { publicOrigin } from '../lib/http/public-origin.mjs';
import { chartTitle } from './chart';
import { footer, html } from './html';
import { textFor } from './i18n';
import type { WidgetName } from './kinds';
import { parseCommon } from './options';
import { widgetPage, widgetResponse } from './page';

// Every widget page is served through here, as every REST route is through restRoute(): the page
// is rendered from the query and the public origin, and anything that goes wrong is logged and
// answered with the widget's own "unavailable" page (503, never cached) instead of the framework's
// error page inside a publisher's iframe.

export type RenderWidget = (query: URLSearchParams, origin: string) => Promise<string>;

export function widgetRoute(name: WidgetName, cache: CacheRoute, render: RenderWidget): (req: Request) => Promise<Response> {
  return async (req) => {
    const query = new URL(req.url).searchParams;
    const origin = publicOrigin(req.headers, req.url);
    try {
      return widgetResponse(req, await render(query, origin), cache);
    } catch (err) {
      console.error(`[widget] ${name} failed`, err);
      return widgetResponse(req, unavailablePage(name, query, origin), null, 503);
    }
  };
}

function unavailablePage(name: WidgetName, query: URLSearchParams, origin: string): string {
  const { theme, locale } = parseCommon(query);
  const text = textFor(locale);
  const { t } = text;
  const title = name === 'price' ? t.priceTitle : name === 'converter' ? t.converterTitle : chartTitle('xau', t);
  const says = name === 'price' ? t.priceUnavailable : name === 'converter' ? t.noConversion : t.chartUnavailable;
  const body = html`<main class="w" aria-label="${title}">
<div class="h"><span>${title}</span></div>
<div class="big">${says}</div>
${footer('', origin)}
</main>`;
  return widgetPage({ name, title, theme, text, body, config: {}, script: false });
}
