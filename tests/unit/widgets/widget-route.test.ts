import { afterEach, describe, expect, it, vi } from 'vitest';
import { textFor } from '@/widgets/i18n';
import { html } from '@/widgets/html';
import { widgetPage } from '@/widgets/page';
import { widgetRoute } from '@/widgets/route';

// A widget page is a guest in a publisher's iframe: whatever fails while rendering it, the reader
// gets the widget's own "unavailable" page, never the framework's error page, and the failure is logged.

afterEach(() => vi.restoreAllMocks());

describe('widgetRoute', () => {
  it('serves the rendered page with the widget cache time', async () => {
    const GET = widgetRoute('price', 'widgetPrice', async (q, origin) => `<p>${q.get('currency')} ${origin}</p>`);
    const res = await GET(new Request('http://host.test/widgets/price?currency=EUR'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(await res.text()).toBe('<p>EUR http://host.test</p>');
  });

  for (const name of ['price', 'chart', 'converter'] as const) {
    it(`${name}: a render that throws becomes the widget's unavailable page (503, not cached), logged`, async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const GET = widgetRoute(name, 'widgetChart', async () => {
        throw new Error('boom in render');
      });
      const res = await GET(new Request(`http://host.test/widgets/${name}?theme=dark&locale=de-DE`));
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors \*/);
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('data-theme="dark"');
      expect(html).toContain('lang="de-DE"');
      expect(html).toContain('Unavailable');
      expect(html).toContain('href="http://host.test/"');
      expect(html).not.toContain('boom');
      expect(html).not.toMatch(/<script src=/);
      expect(log).toHaveBeenCalledWith(`[widget] ${name} failed`, expect.any(Error));
    });
  }
});

describe('widgetPage', () => {
  it('keeps its stylesheet intact (quotes in font names are CSS, not text to escape) while escaping the body', () => {
    const page = widgetPage({ name: 'price', title: 'T', theme: 'auto', text: textFor('en'), body: html`<p>${'<b>"x"</b>'}</p>`, config: {} });
    expect(page).toContain('"Segoe UI"');
    expect(page).not.toContain('&quot;Segoe UI&quot;');
    expect(page).toContain('<p>&lt;b&gt;&quot;x&quot;&lt;/b&gt;</p>');
  });
});
