import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import type { HostSite } from './host';

// Real Chromium for browser tests: Debian's headless shell (chromium-headless-shell), the same engine as its
// `chromium` without the browser around it, about half the CPU for the same pages (BENCHMARKS §18). Playwright
// cannot download its own here. CHROMIUM_PATH overrides the binary (Debian's `chromium` passes the tests too).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
/** The whole browser, for what measures a reader's Chrome (Lighthouse, bench/lighthouse.ts); CHROMIUM_PATH overrides it too. */
export const FULL_CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Chromium as root on a closed network: no sandbox, no GPU, and nothing of its own that phones out. */
export const CHROMIUM_QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let launched: Promise<Browser> | undefined;

/**
 * The test process's Chromium, started by the first browser file a worker runs and kept for the next ones (the
 * integration files run one after another in a few worker processes): a start costs about 0.7 s of CPU. A file
 * gets it back clean: it opens its own pages and contexts and closes them when it ends (`releaseBrowser`). When the
 * worker ends, Chromium ends with it (its pipe to the process closes).
 *
 * Site isolation is off (`--disable-site-isolation-trials`): a publisher's page and its widget frames share one
 * renderer instead of one process per site: the two largest browser files took 6% less CPU (BENCHMARKS §20). What a
 * page can see is unchanged: origins, storage partitions, Web Locks and BroadcastChannel keep their rules in either
 * model. bench/app.ts's widget timings run in the same browser.
 *
 * One renderer per context (`--renderer-process-limit=1`): the pages of one context share a process where one is
 * running (`pagesInOneRenderer`). Contexts do not share one: each still starts its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const running = await launched?.catch(() => undefined);
  if (running?.isConnected()) return running;
  launched = chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_QUIET_FLAGS, '--disable-site-isolation-trials', '--renderer-process-limit=1'],
  });
  return launched;
}

/** Closes every page and context the ending file opened in the shared browser (`launchBrowser`). */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/**
 * A widget in a frame on a publisher's page, below the page's first line, as readers meet it. The headless shell
 * rests its pointer at the page's top-left corner (0, 0) and sends a pointerover there when a page loads, as a
 * desktop browser does for a reader whose mouse rests over it: a chart widget filling the page would take that for
 * a reader reaching for it and start its library. Framed below the corner, the widget sees a pointer only when a
 * test moves one there.
 */
export async function framedWidget(page: Page, host: HostSite, src: string, size = { width: 480, height: 420 }): Promise<Frame> {
  await page.goto(
    host.page(
      `<p style="margin:0;height:40px">Publisher</p><iframe src="${src}" style="width:${size.width}px;height:${size.height}px;border:0"></iframe>`,
    ),
  );
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  if (!frame) throw new Error(`no frame for ${src}`);
  return frame;
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
