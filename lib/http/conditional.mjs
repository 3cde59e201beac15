import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

// Conditional requests (decisions §23): every cacheable 200 carries a validator, and a client that
// already holds the answer is told so with a 304 and no body. One module for the app (lib/http/respond.ts,
// widget pages) and for the response cache in front of it (server/response-cache.mjs), so both decide alike.
//
// The ETag is weak and computed from the body with its time-of-answer fields left out (`updated_at`,
// `price_as_of`, `age_seconds`, and whether this answer's value was just fetched or read from the cache,
// `source` `upstream` or `cache` in a data_state): two answers that differ only in when they were made
// are the same representation, so a poller holding the last one is told it is current until the data
// itself moves.
// Everything else counts, `data_state.status` included, so fresh → stale is a change.
// Last-Modified, on answers that carry `updated_at`, is when this instance first served the body that
// ETag names for that URL (to the second): it moves only when the content does, so `If-Modified-Since`
// answers the same question. Instances keep their own times; the ETag is the same on every one.

const ANSWER_TIME = /"(?:updated_at|price_as_of)":"[^"]*"|"age_seconds":(?:\d+|null)|"source":"(?:upstream|cache)"/g;

/** The weak ETag of a body (a string or bytes); JSON answer-time fields do not count. */
export function etagOf(body) {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return `W/"${createHash('sha1').update(text.replace(ANSWER_TIME, '')).digest('base64url')}"`;
}

/** Per URL, the body (by ETag) last served and since when; bounded, least recently used go first. */
const since = new LRUCache({ max: 4096 });

/** The Last-Modified time (ms, whole seconds) of `etag` at `key`: unchanged while the body is. */
export function lastModifiedOf(key, etag, now = Date.now()) {
  const held = since.get(key);
  if (held?.etag === etag) return held.at;
  const at = Math.floor(now / 1000) * 1000;
  since.set(key, { etag, at });
  return at;
}

/** `W/"x"` and `"x"` name the same representation under weak comparison (RFC 9110 §8.8.3.2). */
const opaque = (tag) => tag.trim().replace(/^W\//, '');

/**
 * Whether a request's validators say it holds the current answer: `If-None-Match` when present (any of
 * its tags, or `*`), else `If-Modified-Since` against `lastModified` (ms, or null when there is none).
 * @param {(name: string) => string | null | undefined} header a request header by lower-case name
 */
export function notModified(header, etag, lastModified) {
  const inm = header('if-none-match');
  if (inm != null) return inm.trim() === '*' || inm.split(',').some((t) => opaque(t) === opaque(etag));
  const ims = header('if-modified-since');
  if (ims == null || lastModified == null) return false;
  const t = Date.parse(ims);
  return Number.isFinite(t) && lastModified <= t;
}
