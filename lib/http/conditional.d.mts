/** The weak ETag of a body (a string or bytes); JSON answer-time fields do not count. */
export function etagOf(body: string | Buffer): string;

/** The Last-Modified time (ms, whole seconds) of `etag` at `key`: unchanged while the body is. */
export function lastModifiedOf(key: string, etag: string, now?: number): number;

/** Whether a request's validators say it holds the current answer (If-None-Match, else If-Modified-Since). */
export function notModified(header: (name: string) => string | null | undefined, etag: string, lastModified: number | null): boolean;
