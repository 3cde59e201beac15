import type { McpServer } from '@modelcontextprotocol/server';
import { registerAppResource, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';

// The MCP Apps views (extension io.modelcontextprotocol/ui, decisions §22): a host that renders MCP
// Apps draws a tool's result in the view the tool names, inside the conversation; any other host
// sees the tool's text and structuredContent as before. Each view is one self-contained HTML
// document built from the widgets' code (widgets/views/), handed to the server by its caller, since
// lib/ imports nothing above it.

export const VIEWS = [
  {
    name: 'price',
    uri: 'ui://gold/price',
    title: 'Gold price',
    description:
      'The live gold price in the currency and unit asked for, with its change since the previous close (sign and arrow), whether the ' +
      'market is open and how fresh the figure is; drawn from the result of get_gold_price.',
  },
  {
    name: 'chart',
    uri: 'ui://gold/chart',
    title: 'Gold price chart',
    description:
      'The series of get_gold_history, get_gold_intraday or compare_gold_to_asset as a line with its high and low, and buttons that ask ' +
      'the same tool again, through the host, for another range.',
  },
] as const;

export type ViewName = (typeof VIEWS)[number]['name'];
/** Each view's HTML document. */
export type ViewDocuments = Record<ViewName, string>;

/** A view's `ui://` address. */
export function viewUri(name: ViewName): string {
  return VIEWS.find((v) => v.name === name)!.uri;
}

/**
 * Serves every view as a resource (resources/list, resources/read) with the extension's mimeType.
 * No `_meta.ui.csp` and no `domain`: a view loads nothing from any origin, so the host's default
 * policy (`connect-src 'none'`) holds and every host can frame it.
 */
export function registerViews(server: McpServer, documents: ViewDocuments): void {
  for (const v of VIEWS) {
    registerAppResource(server, v.name, v.uri, { title: v.title, description: v.description }, async () => ({
      contents: [{ uri: v.uri, mimeType: RESOURCE_MIME_TYPE, text: documents[v.name] }],
    }));
  }
}
