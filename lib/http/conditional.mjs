import { createHash } from 'node:crypto';

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
// Last-Modified, on answers that carry `updated_at`, is the newest data time the answer shows (decisions §29):
// the newest `as_of` of its data states and sources, to the second. It comes from the data, never from when
// an instance answered, so every instance sharing a store says the same, and newer data always has a later
// time: no 304 to `If-Modified-Since` can name an answer with older data as current. (A change of state with
// no newer data, fresh to stale, moves the ETag but not this time: `If-None-Match` sees it.)

const ANSWER_TIME = /"(?:updated_at|price_as_of)":"[^"]*"|"age_seconds":(?:\d+|null)|"source":"(?:upstream|cache)"/g;

/** The weak ETag of a body (a string or bytes); JSON answer-time fields do not count. */
export function etagOf(body) {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return `W/"${createHash('sha1').update(text.replace(ANSWER_TIME, '')).digest('base64url')}"`;
}

/**
 * `etagOf(head + data + tail)` without making that text: for a JSON answer whose middle part (a series' points)
 * holds no answer-time field, hashed as the bytes it already is. A ten-year history answer is hashed without a copy.
 * @param {string} head
 * @param {Uint8Array} data
 * @param {string} tail
 */
export function etagOfParts(head, data, tail) {
  const hash = createHash('sha1').update(head.replace(ANSWER_TIME, '')).update(data).update(tail.replace(ANSWER_TIME, ''));
  return `W/"${hash.digest('base64url')}"`;
}

/**
 * The newest data time (ms, whole seconds) in `value`, an answer before it is serialized: every `as_of` it holds
 * (an ISO time, or a `YYYY-MM` month), at any depth, but not inside `points` (a series' points carry their
 * dates, the series' own time is its data_state's); null when it holds none (nothing real held).
 * @param {unknown} value
 * @returns {number | null}
 */
export function newestDataTime(value) {
  let newest = -Infinity;
  /** @param {unknown} v */
  const walk = (v) => {
    if (Array.isArray(v)) for (const item of v) walk(item);
    else if (v !== null && typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) {
        if (k === 'as_of' && typeof inner === 'string') {
          const t = Date.parse(inner);
          if (t > newest) newest = t;
        } else if (k !== 'points') walk(inner);
      }
  };
  walk(value);
  return Number.isFinite(newest) ? Math.floor(newest / 1000) * 1000 : null;
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
