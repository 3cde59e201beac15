import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import type { HostConfig, HostedView, ViewState } from './apps-host';
import { ROOT } from './app';

// Serves an MCP Apps host page (tests/support/apps-host.ts, the package's own AppBridge) and the view
// documents to Chromium, each from its own made-up origin, a view under the policy a host gives one
// with no `_meta.ui.csp`: nothing but its own inline script and style, and `connect-src 'none'`.

export const HOST_ORIGIN = 'http://host.example';
export const VIEW_ORIGIN = 'http://view.example';
export const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'";

let bundled: Promise<string> | undefined;
/** The host script, bundled once per run with the package's real dependencies. */
function hostScript(): Promise<string> {
  bundled ??= esbuild
    .build({
      entryPoints: [path.join(ROOT, 'tests', 'support', 'apps-host.ts')],
      bundle: true,
      format: 'iife',
      target: 'es2022',
      write: false,
      logLevel: 'error',
    })
    .then((r) => r.outputFiles[0].text.replace(/<\/script/gi, '<\\/script'));
  return bundled;
}

export interface Hosted extends Omit<HostedView, 'src'> {
  /** The view's HTML document, as resources/read gives it. */
  document: string;
}

/**
 * Opens the host with its views; returns every URL the page asked for (only the host page and the view documents are
 * answered). `callTool` answers a view's tools/call as the host's MCP client would.
 */
export async function openHost(
  page: Page,
  views: Hosted[],
  cfg: Omit<HostConfig, 'views'>,
  callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>,
): Promise<{ requests: string[]; frames: () => Frame[] }> {
  const requests: string[] = [];
  const script = await hostScript();
  const hosted: HostConfig = { ...cfg, views: views.map(({ document: _doc, ...v }, i) => ({ ...v, src: `${VIEW_ORIGIN}/view/${i}` })) };
  const config = JSON.stringify(hosted).replace(/</g, '\\u003c');
  await page.exposeFunction('callTool', callTool);
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url === `${HOST_ORIGIN}/`) {
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body style="margin:0;padding:12px;background:#f4f4f5;font:14px system-ui,sans-serif"><script>window.HOST=${config}</script><script>${script}</script></body></html>`,
      });
    }
    const i = url.startsWith(`${VIEW_ORIGIN}/view/`) ? Number(url.slice(`${VIEW_ORIGIN}/view/`.length)) : NaN;
    if (views[i]) {
      return route.fulfill({ contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': VIEW_CSP }, body: views[i].document });
    }
    return route.abort();
  });
  await page.goto(`${HOST_ORIGIN}/`);
  const frames = () => views.map((_, i) => page.frames().find((f) => f.url() === `${VIEW_ORIGIN}/view/${i}`)!);
  return { requests, frames };
}

/** What the host page has seen of each view so far. */
export function hostState(page: Page): Promise<ViewState[]> {
  return page.evaluate(() => window.host);
}
