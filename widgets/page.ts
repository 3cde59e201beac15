import { linkVary } from '../lib/http/public-origin.mjs';
import manifest from './manifest.json';
import { cacheHeaders, NO_STORE, type CacheRoute } from '../lib/http/cache';
import { config } from '../lib/core/config';
import { etagOf, notModified } from '../lib/http/conditional.mjs';
import { html, jsonScript, SafeHtml } from './html';
import type { WidgetText } from './i18n';
import type { WidgetName } from './kinds';
import type { Theme } from './options';

// The page shell every widget shares: server-rendered HTML with the figures already in it, a
// small stylesheet (colours meet WCAG AA contrast in both themes: text 4.5:1, control borders 3:1),
// the widget's configuration as JSON, and its own script (no framework runtime). The script is a
// module (deferred, as modules are), so the chart's can import its library chunk when needed.

export const CSS = `
:root{--bg:#fffdf7;--fg:#1d1a12;--muted:#6b6455;--line:#e8e1cf;--gold:#8a6500;--up:#137a3a;--down:#b3261e;--warn-bg:#fff3cd;--warn-fg:#6b4e00;--field:#fff;--ctl:#8a8270}
[data-theme=dark]{--bg:#17150f;--fg:#f3eee2;--muted:#a69f8d;--line:#3a3527;--gold:#e0b53d;--up:#5fd38a;--down:#ff8a80;--warn-bg:#4a3b0b;--warn-fg:#ffe08a;--field:#221f17;--ctl:#7a735f}
@media (prefers-color-scheme:dark){[data-theme=auto]{--bg:#17150f;--fg:#f3eee2;--muted:#a69f8d;--line:#3a3527;--gold:#e0b53d;--up:#5fd38a;--down:#ff8a80;--warn-bg:#4a3b0b;--warn-fg:#ffe08a;--field:#221f17;--ctl:#7a735f}}
*{box-sizing:border-box}[hidden]{display:none!important}html,body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.w{padding:12px 14px;border:1px solid var(--line);border-radius:10px}
.h{display:flex;justify-content:space-between;align-items:baseline;gap:8px;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
[dir=rtl] .h{letter-spacing:0}/* joined Arabic letters must not be spaced apart */
.big{font-size:28px;font-weight:700;color:var(--fg);font-variant-numeric:tabular-nums;margin:4px 0}
.row{display:flex;gap:14px;flex-wrap:wrap;color:var(--muted);font-size:13px}.row b{color:var(--fg);font-weight:600}
.up{color:var(--up)}.down{color:var(--down)}
.badge{display:inline-block;padding:1px 6px;border-radius:6px;background:var(--warn-bg);color:var(--warn-fg);font-size:12px;font-weight:600;text-transform:none;letter-spacing:0}
.foot{display:flex;justify-content:space-between;gap:8px;margin-top:8px;color:var(--muted);font-size:12px}
a{color:var(--gold)}
label{display:block;color:var(--muted);font-size:12px;margin:6px 0 2px}
input,select,button{font:inherit;color:var(--fg);background:var(--field);border:1px solid var(--ctl);border-radius:6px;padding:6px 8px}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--gold);outline-offset:1px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export interface PageInput {
  name: WidgetName;
  title: string;
  theme: Theme;
  /** The page's language; its words go to the script with the configuration. */
  text: WidgetText;
  body: SafeHtml;
  /** Configuration the widget's script reads (`#gw-config`). */
  config: Record<string, unknown>;
  /** Extra CSS for this widget: a constant of its module, never input (it is not escaped). */
  css?: string;
  /** false: a page without the widget's script (the failure page). */
  script?: false;
}

export function widgetPage(p: PageInput): string {
  const script = p.script === false ? undefined : (manifest as Record<string, string>)[p.name];
  return html`<!doctype html>
<html lang="${p.text.lang}" dir="${p.text.dir}" data-theme="${p.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<meta name="description" content="${p.title}">
<link rel="icon" href="data:,">
${streamHeartbeatMeta()}
<title>${p.title}</title>
<style>${new SafeHtml(CSS + (p.css ?? ''))}</style>
</head>
<body>
${p.body}
${jsonScript('gw-config', { ...p.config, lang: p.text.lang, t: p.text.t })}
${script ? html`<script type="module" src="${script}"></script>` : ''}
</body>
</html>`.value;
}

/** The price stream's heartbeat, for the page's script (widgets/scripts/live.ts): two without an event mean poll. */
export const streamHeartbeatMeta = () => html`<meta name="stream-heartbeat-s" content="${String(config.stream.heartbeatS())}">`;

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

/** A widget page, cached for as long as the data it shows (`route` in lib/http/cache.ts); null: never stored (the failure page). */
export function widgetResponse(req: Request, body: string, route: CacheRoute | null, status = 200): Response {
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': WIDGET_CSP,
    ...(route === null ? NO_STORE : cacheHeaders(route)),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  // Every widget page links back to the site through the public origin.
  const vary = linkVary();
  if (vary) headers.set('Vary', vary);
  // A page whose data has not moved is revalidated for the cost of a 304 (decisions §23, §25).
  if (status === 200 && route !== null) {
    const { etag, lastModified } = pageValidators(body);
    headers.set('ETag', etag);
    if (lastModified !== null) headers.set('Last-Modified', new Date(lastModified).toUTCString());
    if (notModified((name) => req.headers.get(name), etag, lastModified)) return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === 'HEAD' ? null : body, { status, headers });
}

/**
 * The text a widget's script rewrites every second from the data's own time ("updated 5 s ago", a stale
 * badge's age): what the page says about the clock, not about its data.
 */
const SCRIPT_WRITTEN = /(<[^>]*\bdata-f="(?:fresh|badge)"[^>]*>)[^<]*/g;
/** Every data time a page's configuration carries (each shown figure's `data_state.as_of`). */
const DATA_TIME = /"as_of":"([^"]+)"/g;

/**
 * The validators of a widget page, from the data it shows (decisions §25), so they hold while the data does
 * and are the same on every instance: the ETag leaves out the text the page's script writes and, as for any
 * answer, the answer-time fields of its configuration (`age_seconds`, lib/http/conditional.mjs); Last-Modified
 * is the newest `as_of` in the configuration (the data's own time, to the second), none when no price is held.
 */
export function pageValidators(body: string): { etag: string; lastModified: number | null } {
  const times = [...body.matchAll(DATA_TIME)].map((m) => Date.parse(m[1])).filter(Number.isFinite);
  return {
    etag: etagOf(body.replace(SCRIPT_WRITTEN, '$1')),
    lastModified: times.length ? Math.floor(Math.max(...times) / 1000) * 1000 : null,
  };
}
