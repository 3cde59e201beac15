// The Server-Sent Events wire format (WHATWG HTML, "Server-sent events"): fields `event:`, `id:`, `data:`
// and `retry:`, a blank line ending each block; a line starting with `:` is a comment EventSource ignores.
// JSON never holds a raw line break, so one `data:` line carries a whole event.

const encoder = new TextEncoder();

/** Bytes of a text block, encoded once and written to every client that gets it. */
export const bytes = (text: string): Uint8Array => encoder.encode(text);

/** How long EventSource waits before reconnecting, in ms. */
export const retryBlock = (ms: number) => `retry: ${ms}\n\n`;

/** One event; `id` (the browser resends it as `Last-Event-ID`) is left out when there is none. */
export const eventBlock = (name: string, id: number | null, data: string) => `event: ${name}\n${id === null ? '' : `id: ${id}\n`}data: ${data}\n\n`;

/** A comment line (EventSource never surfaces it): says why the stream ends. */
export const commentBlock = (text: string) => `: ${text}\n\n`;
