import type { Browser, BrowserContext, Page, ViewportSize } from 'playwright-core';
import { afterEach } from 'vitest';

// Apart from browser.ts, which the benchmark imports too: this one registers a vitest hook, and vitest cannot be
// loaded outside its runner (bench/ runs under plain Node).

/**
 * New pages that share one renderer process, for a file's checks that need no context of their own. A page in a
 * context of its own (`browser.newPage`) starts a renderer process: about 0.3 s of Chromium's CPU, more than a small
 * page's load (BENCHMARKS §22h). These pages open in one context per file, beside a blank page kept open in it, so
 * each joins the blank page's renderer.
 *
 * The pages share what a context holds: storage, cookies, permissions, and Web Locks and BroadcastChannel (which
 * widgets on one origin use to share a stream). When a test ends, the pages it left open are closed and the cookies
 * (a reader's chosen currency, unit and language) and permissions cleared, so no test meets another's. A check that
 * needs a context of its own (fresh storage, other options) opens one.
 */
export function pagesInOneRenderer(browser: () => Browser): (options?: { viewport?: ViewportSize }) => Promise<Page> {
  let context: Promise<{ context: BrowserContext; blank: Page }> | undefined;
  afterEach(async () => {
    const open = await context;
    if (!open) return;
    await Promise.all(open.context.pages().map((page) => page !== open.blank && page.close()));
    await Promise.all([open.context.clearCookies(), open.context.clearPermissions()]);
  });
  return async ({ viewport } = {}) => {
    context ??= browser()
      .newContext()
      .then(async (opened) => ({ context: opened, blank: await opened.newPage() }));
    const page = await (await context).context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    return page;
  };
}
