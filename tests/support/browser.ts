import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

// Real Chromium for browser tests: Debian's build (Playwright cannot download its own here).
// CHROMIUM_PATH overrides the binary.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Console errors and failed requests of a page, for "renders cleanly" assertions. */
export function watch(page: Page): { errors: string[]; failed: string[] } {
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('requestfailed', (req) => failed.push(`${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.url()} ${res.status()}`);
  });
  return { errors, failed };
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical violations on the page as loaded, each as `rule: first targets`; `only` narrows the
 * rules (e.g. `{runOnly: {type: 'rule', values: ['color-contrast']}}`).
 */
export async function seriousViolations(page: Page, only: object = {}): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (only) => {
    const r = await (window as any).axe.run(document, { ...only, resultTypes: ['violations'] });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v: any) =>
          `${v.id}: ${v.nodes
            .map((n: any) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
  }, only);
}

/**
 * One page a file navigates from address to address, instead of a new page per check: each new page costs Chromium a
 * renderer process of its own (about half a second of CPU on a 2-core machine, more under load). `visit` goes to a
 * blank page first, so what the previous address had open (a price stream) has ended before the next one's console
 * errors, failed requests and requests are counted.
 */
export async function reusedPage(browser: Browser, options: Parameters<Browser['newPage']>[0] = {}) {
  const page = await browser.newPage(options);
  const seen = watch(page);
  const requests: { url: string; type: string; bytes: () => Promise<number> }[] = [];
  page.on('request', (req) => requests.push({ url: req.url(), type: req.resourceType(), bytes: async () => (await req.sizes()).responseBodySize }));
  return {
    page,
    seen,
    /** Every request since the last visit began. */
    requests,
    async visit(url: string) {
      await page.goto('about:blank');
      for (const list of [seen.errors, seen.failed, requests]) list.length = 0;
      return page.goto(url);
    },
  };
}
