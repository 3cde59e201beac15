import manifest from './manifest.json';
import { html, jsonScript, type SafeHtml } from './html';
import { cacheHeaders, type CacheRoute } from '../lib/http/cache';
import type { Theme } from './options';

// The page shell every widget shares: server-rendered HTML with the figures already in it, a
// small stylesheet, the widget's configuration as JSON, and its own script (no framework runtime).

export type WidgetName = 'price' | 'chart' | 'converter';

const CSS = `
:root{--bg:#fffdf7;--fg:#1d1a12;--muted:#6b6455;--line:#e8e1cf;--gold:#a87b00;--up:#137a3a;--down:#b3261e;--warn-bg:#fff3cd;--warn-fg:#6b4e00;--field:#fff}
[data-theme=dark]{--bg:#17150f;--fg:#f3eee2;--muted:#a69f8d;--line:#3a3527;--gold:#e0b53d;--up:#5fd38a;--down:#ff8a80;--warn-bg:#4a3b0b;--warn-fg:#ffe08a;--field:#221f17}
@media (prefers-color-scheme:dark){[data-theme=auto]{--bg:#17150f;--fg:#f3eee2;--muted:#a69f8d;--line:#3a3527;--gold:#e0b53d;--up:#5fd38a;--down:#ff8a80;--warn-bg:#4a3b0b;--warn-fg:#ffe08a;--field:#221f17}}
*{box-sizing:border-box}[hidden]{display:none!important}html,body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.w{padding:12px 14px;border:1px solid var(--line);border-radius:10px}
.h{display:flex;justify-content:space-between;align-items:baseline;gap:8px;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.big{font-size:28px;font-weight:700;color:var(--fg);font-variant-numeric:tabular-nums;margin:4px 0}
.row{display:flex;gap:14px;flex-wrap:wrap;color:var(--muted);font-size:13px}.row b{color:var(--fg);font-weight:600}
.up{color:var(--up)}.down{color:var(--down)}
.badge{display:inline-block;padding:1px 6px;border-radius:6px;background:var(--warn-bg);color:var(--warn-fg);font-size:12px;font-weight:600;text-transform:none;letter-spacing:0}
.foot{display:flex;justify-content:space-between;gap:8px;margin-top:8px;color:var(--muted);font-size:12px}
a{color:var(--gold)}
label{display:block;color:var(--muted);font-size:12px;margin:6px 0 2px}
input,select,button{font:inherit;color:var(--fg);background:var(--field);border:1px solid var(--line);border-radius:6px;padding:6px 8px}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--gold);outline-offset:1px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export interface PageInput {
  name: WidgetName;
  title: string;
  theme: Theme;
  locale: string;
  body: SafeHtml;
  /** Configuration the widget's script reads (`#gw-config`). */
  config: Record<string, unknown>;
  /** Extra CSS for this widget. */
  css?: string;
}

export function widgetPage(p: PageInput): string {
  const script = (manifest as Record<string, string>)[p.name];
  return html`<!doctype html>
<html lang="${p.locale}" data-theme="${p.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${p.title}</title>
<style>${CSS}${p.css ?? ''}</style>
</head>
<body>
${p.body}
${jsonScript('gw-config', p.config)}
${script ? html`<script src="${script}" defer></script>` : ''}
</body>
</html>`.value;
}

/** Widget pages may be framed by any site; nothing else is (see next.config.ts). */
const WIDGET_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');

/** A widget page, cached for as long as the data it shows (`route` in lib/http/cache.ts). */
export function widgetResponse(body: string, route: CacheRoute): Response {
  return new Response(body, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': WIDGET_CSP,
      ...cacheHeaders(route),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    },
  });
}
