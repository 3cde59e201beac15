import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoldServer, TOOLS } from '@/lib/mcp/server';
import { VIEWS } from '@/lib/mcp/views';
import { VIEW_DOCUMENTS } from '@/widgets/views/documents';

// The MCP Apps views (decisions §22) as a client sees them through the SDK's own client, and the
// built documents themselves: self-contained, nothing loaded from any origin. The wire in both eras
// over HTTP and the budgets of the served documents are tests/integration/mcp/mcp-apps.test.ts; the
// views drawing in Chromium under the package's own host are tests/browser/mcp-apps.test.ts.

let client: Client;
beforeAll(async () => {
  const server = createGoldServer({ origin: 'http://t' }, VIEW_DOCUMENTS);
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
});
afterAll(() => client.close());

const LINKS: Record<string, string | undefined> = {
  get_gold_price: 'ui://gold/price',
  get_gold_history: 'ui://gold/chart',
  get_gold_intraday: 'ui://gold/chart',
  compare_gold_to_asset: 'ui://gold/chart',
  get_central_bank_reserves: undefined,
  get_data_status: undefined,
  get_metal_value: undefined,
};

describe('views as resources', () => {
  it('lists both views with the extension’s mimeType, a title and a description; the capability says the list never changes', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['ui://gold/price', 'ui://gold/chart']);
    for (const r of resources) {
      expect(r.mimeType, r.uri).toBe('text/html;profile=mcp-app');
      expect(r.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(r.name, r.uri).toBeTruthy();
      expect(r.title, r.uri).toBeTruthy();
      expect(r.description?.length, r.uri).toBeGreaterThan(60);
      // No `_meta.ui.csp` and no `domain`: the host's default policy, under which every host frames it.
      expect(r._meta, r.uri).toBeUndefined();
    }
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  it('reads each view as its built document', async () => {
    for (const v of VIEWS) {
      const { contents } = await client.readResource({ uri: v.uri });
      expect(contents).toEqual([{ uri: v.uri, mimeType: RESOURCE_MIME_TYPE, text: VIEW_DOCUMENTS[v.name] }]);
    }
  });

  it('an unknown resource is JSON-RPC -32602 naming the URI, never an empty result', async () => {
    const err = await client.readResource({ uri: 'ui://gold/nothing' }).then(
      () => null,
      (e: { code?: number; data?: unknown }) => e,
    );
    expect(err).toMatchObject({ code: -32602, data: { uri: 'ui://gold/nothing' } });
  });
});

describe('tools name their view', () => {
  it('each tool with a view names it both ways, and it is a listed resource; the others name none', async () => {
    const { tools } = await client.listTools();
    const listed = new Set((await client.listResources()).resources.map((r) => r.uri));
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(LINKS).sort());
    for (const t of tools) {
      const uri = LINKS[t.name];
      const meta = t._meta as { ui?: { resourceUri?: string }; [RESOURCE_URI_META_KEY]?: string } | undefined;
      expect(meta?.ui?.resourceUri, t.name).toBe(uri);
      // The flat key hosts from before the stable specification read.
      expect(meta?.[RESOURCE_URI_META_KEY], t.name).toBe(uri);
      if (uri) expect(listed.has(uri), t.name).toBe(true);
    }
    expect(TOOLS.filter((t) => t.view).map((t) => t.name)).toEqual(Object.keys(LINKS).filter((n) => LINKS[n]));
  });

  it('without the views the server offers its tools alone, as before them', async () => {
    const bare = createGoldServer({ origin: 'http://t' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const c = new Client({ name: 't', version: '1' });
    await Promise.all([bare.connect(a), c.connect(b)]);
    expect(c.getServerCapabilities()?.resources).toBeUndefined();
    expect((await c.listTools()).tools.every((t) => t._meta === undefined)).toBe(true);
    await c.close();
  });
});

describe('the documents', () => {
  for (const v of VIEWS) {
    const doc = VIEW_DOCUMENTS[v.name];

    it(`${v.name}: one HTML5 document, its script and style inline`, () => {
      expect(doc).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr" data-theme="auto">/);
      expect(doc.match(/<script>/g)).toHaveLength(1);
      expect(doc).toMatch(/<style>[^<]+<\/style>/);
      expect(doc).toContain('<script type="application/json" id="gw-config">');
      expect(doc.trimEnd().endsWith('</html>')).toBe(true);
    });

    it(`${v.name}: nothing loads from any origin (no src or href, no url(), no fetch, XMLHttpRequest, import(), socket or beacon)`, () => {
      for (const pattern of [
        /\bsrc\s*=/i,
        /\bhref\b/i,
        /<link\b/i,
        /<(img|iframe|object|embed|video|audio|source|base|form)\b/i,
        /url\s*\(/i,
        /@import/i,
        /\bfetch\s*\(/,
        /XMLHttpRequest/,
        /\bimport\s*\(/,
        /WebSocket|EventSource|sendBeacon|importScripts|Worker\s*\(/,
      ]) {
        expect(doc, String(pattern)).not.toMatch(pattern);
      }
      // The one address in it is the SVG namespace, a name the chart's line is made in, never fetched.
      const urls = doc.match(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'`)]*/gi) ?? [];
      expect(new Set(urls)).toEqual(new Set(v.name === 'chart' ? ['http://www.w3.org/2000/svg'] : []));
    });

    it(`${v.name}: the widgets' words in all their languages, for the keys the view shows`, () => {
      const cfg = JSON.parse(/<script type="application\/json" id="gw-config">(.*?)<\/script>/s.exec(doc)![1]) as {
        version: string;
        text: Record<string, { dir: string; t: Record<string, string> }>;
      };
      expect(Object.keys(cfg.text).sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'tr', 'zh']);
      expect(cfg.text.ar.dir).toBe('rtl');
      expect(cfg.text.de.dir).toBe('ltr');
      for (const [lang, { t }] of Object.entries(cfg.text)) for (const [k, w] of Object.entries(t)) expect(w, `${lang}.${k}`).toBeTruthy();
    });
  }
});
