import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { App } from '../support/app';
import { framedWidget, launchBrowser, releaseBrowser } from '../support/browser';
import { FakeUpstream } from '../support/fake-upstream';
import { HostSite } from '../support/host';
import { realChartHandler } from '../support/yahoo';

// WCAG 2.2 AA colour contrast (axe's color-contrast rule: 4.5:1 text, 3:1 large text) on every
// widget, in the light and the dark scheme, once everything has drawn. The site's pages get axe's
// whole rule set in both schemes in docs.test.ts, whose serious violations include color-contrast.

const WIDGETS = ['/widgets/price', '/widgets/price?silver=1&ratio=1', '/widgets/chart', '/widgets/chart?range=1y', '/widgets/converter'];
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let fake: FakeUpstream;
let app: App;
let browser: Browser;
let host: HostSite;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  app = await App.start({ env: fake.env() });
  browser = await launchBrowser();
  host = await HostSite.start();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await host?.close();
  await app?.stop();
  await fake?.close();
});

/**
 * One page for every check, past the widgets' CSP (script-src 'self'), which would refuse axe's inline script. Each
 * widget is framed on a publisher's page (tests/support/browser.ts), so the chart is checked as first drawn, before any
 * pointer starts its library (whose canvas axe cannot read).
 */
let shared: Page | undefined;

async function contrastViolations(path: string, scheme: 'light' | 'dark'): Promise<string[]> {
  shared ??= await browser.newPage({ bypassCSP: true });
  await shared.emulateMedia({ colorScheme: scheme });
  const answered = shared.waitForResponse((r) => r.url() === app.url + path);
  const frame = await framedWidget(shared, host, app.url + path);
  expect((await answered).status(), path).toBe(200);
  await frame.waitForLoadState('networkidle');
  await frame.addScriptTag({ content: axeSource });
  return frame.evaluate(async () => {
    const r = await (window as any).axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] });
    return r.violations.flatMap((v: any) => v.nodes.map((n: any) => `${n.target.join(' ')}: ${n.any[0]?.message ?? v.help}`));
  });
}

describe('colour contrast, light and dark', () => {
  for (const path of WIDGETS) {
    it(`${path}`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        expect(await contrastViolations(path, scheme), `${path} ${scheme}`).toEqual([]);
      }
    });
  }

  it('a widget with a theme of its own meets it too, whatever the reader prefers', async () => {
    for (const theme of ['light', 'dark']) {
      for (const scheme of ['light', 'dark'] as const) {
        expect(await contrastViolations(`/widgets/chart?theme=${theme}`, scheme), `${theme} in ${scheme}`).toEqual([]);
      }
    }
  });
});

describe('widget pages are fragments of other sites', () => {
  for (const name of ['price', 'chart', 'converter']) {
    it(`/widgets/${name}: noindex, and a description`, async () => {
      const html = await (await app.get(`/widgets/${name}`)).text();
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).toMatch(/<meta name="description" content="[^"]{4,}">/);
    });
  }
});
