/** The weak ETag of a body (a string or bytes); JSON answer-time fields do not count. */
export function etagOf(body: string | Buffer): string;

/** `etagOf(head + data + tail)` without making that text, for a middle part that holds no answer-time field. */
export function etagOfParts(head: string, data: Uint8Array, tail: string): string;

/**
 * The newest data time (ms, whole seconds) in `value`, an answer before it is serialized: every `as_of` it holds,
 * at any depth, but not inside `points`; null when it holds none.
 */
export function newestDataTime(value: unknown): number | null;

/** Whether a request's validators say it holds the current answer (If-None-Match, else If-Modified-Since). */
export function notModified(header: (name: string) => string | null | undefined, etag: string, lastModified: number | null): boolean;
