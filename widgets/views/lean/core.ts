import { z } from './zod';

// Stands in for @modelcontextprotocol/core in the views' build: the schemas the App class names
// (as parts of its own, see zod.ts), and the JSON-RPC check its postMessage transport makes before
// it hands a message on.

const anything = z.unknown();
export const EmptyResultSchema = anything;
export const ContentBlockSchema = anything;
export const CallToolResultSchema = anything;
export const EmbeddedResourceSchema = anything;
export const ImplementationSchema = anything;
export const RequestIdSchema = anything;
export const ResourceLinkSchema = anything;
export const ToolSchema = anything;

/** A JSON-RPC 2.0 request, notification or response; anything else on the window's message channel is not for the App. */
export const JSONRPCMessageSchema = {
  safeParse(data: unknown): { success: true; data: unknown } | { success: false; error: { message: string } } {
    const m = data as { jsonrpc?: unknown; method?: unknown; id?: unknown; result?: unknown; error?: unknown } | null;
    const ok =
      typeof m === 'object' &&
      m !== null &&
      m.jsonrpc === '2.0' &&
      (typeof m.method === 'string' || ((typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m)));
    return ok ? { success: true, data } : { success: false, error: { message: 'not a JSON-RPC 2.0 message' } };
  },
};
