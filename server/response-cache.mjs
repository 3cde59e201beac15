// A shared response cache in front of the app, obeying the app's caching headers as a CDN would:
// - keyed by host, path and the full query string (`cacheKey`), so a throwaway parameter bypasses it;
// - freshness from `CDN-Cache-Control` (RFC 9213: the targeted header replaces Cache-Control for a
//   shared cache) else `Cache-Control`, with the HTTP caching rules of RFC 9111 (Vary, Age, request
//   directives) left to http-cache-semantics;
// - only 200 answers to GET/HEAD without no-store, private or Set-Cookie are stored;
// - a miss costs what the app costs without the cache: the app renders straight into the client's
//   response, through the compression layer as usual, and this layer keeps a copy of the identity bytes
//   as they go by (no injected request, no compression on the way in);
// - a stored answer is compressed once per encoding, when a client first asks for that encoding, so a
//   hit only copies bytes and never enters the framework, and a key nobody asks for again costs nothing;
// - concurrent misses of one key make one render; a copy past its lifetime but within
//   stale-while-revalidate is served at once (`X-Cache: STALE`) while one background render refreshes it
//   (that one, with no client, runs the app on an injected request, as does a HEAD miss); a refresh that
//   fails (a server error, a render broken off) leaves the copy as it was, and the next stale request tries again;
//   a render still running after 30 s frees its key: its waiters render their own, and a stale copy refreshes again;
// - memory is bounded: least recently used entries go first (lru-cache, sized in bytes), and an entry's
//   size counts everything it keeps alive (buffers, header arrays, the policy, the store's own slots).
// - a request holding the stored answer (If-None-Match, or If-Modified-Since without it) is answered 304
//   from the entry, at hit speed; a conditional miss renders without its validators (the copy kept must be
//   whole) and is then answered the same way (lib/http/conditional.mjs decides, as the app does);
// /mcp, the price stream (an answer that never ends: it is neither stored nor shared, and no-transform keeps
// the compression layer off it) and every other method pass straight through.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import compressible from 'compressible';
import CachePolicy from 'http-cache-semantics';
import { inject } from 'light-my-request';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { metrics } from '../lib/core/metrics.mjs';
import { notModified } from '../lib/http/conditional.mjs';
import { publicOrigin } from '../lib/http/public-origin.mjs';

/** Bodies under this many bytes are stored and served uncompressed (not worth it). */
const COMPRESS_THRESHOLD = 1024;
/** How long a key whose answer could not be stored goes straight to the app. */
const PASS_MS = 5000;
/** How long a render may hold its key: past this, requests waiting on it render their own and a stale copy may refresh again. */
const RENDER_DEADLINE_MS = 30_000;
/** Encodings in the order they are preferred when a client accepts several equally. */
const ENCODINGS = ['br', 'gzip', 'identity'];
/** Headers that describe one connection or one encoding, never a stored answer. */
const NOT_STORED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'date', 'age', 'x-cache']);
/** Request headers an injected render must not see: the stored answer is shared and complete, in identity. */
const NOT_FORWARDED = ['accept-encoding', 'if-none-match', 'if-modified-since', 'range', 'if-range'];
/** The response headers http-cache-semantics reads; the policy keeps only these. */
const POLICY_HEADERS = ['date', 'age', 'expires', 'last-modified', 'etag', 'pragma'];

// What an entry keeps alive beside its bodies and header strings, in bytes, rounded up from heap
// snapshots on Node 24 (the unit test "accounting covers what an entry keeps alive" checks the sum):
/** The entry object, the policy with its parsed directives and trimmed headers, its request's few headers. */
const ENTRY_BYTES = 1536;
/** The store's own bookkeeping per key (map slot, list links, sizes, TTL starts). */
const SLOT_BYTES = 256;
/** One Buffer: its JS object, the ArrayBuffer and the backing store record. */
const BUFFER_BYTES = 320;
/** One JS string (header name or value, key) beyond its characters. */
const STRING_BYTES = 32;
/** One slot of an array or object property. */
const SLOT = 16;

/**
 * The cache key of a request: the public origin the app builds its links from (the same function
 * the app calls), then the path and the full query string as received. An answer made for one
 * origin is never served to another.
 * @param {import('node:http').IncomingMessage} req
 * @returns {string}
 */
export function cacheKey(req) {
  return `${publicOrigin(req.headers)}${req.url}`;
}

/**
 * @typedef {{ status: number, headers: Record<string, string | string[]>, body: Buffer }} Rendered
 * @typedef {{ status: number, headers: Record<string, string | string[]>, compress: boolean,
 *   bodies: Partial<Record<'br' | 'gzip' | 'identity', Buffer>>, lines: Record<string, string[]>,
 *   policy?: CachePolicy, key?: string, size?: number, freshUntil?: number,
 *   vary?: string[], made?: Record<string, string | string[] | undefined> }} Answer
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} Handler
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void} Middleware
 */

/**
 * Wraps `app` (the framework) and its compression layer in the cache. With RESPONSE_CACHE=off (or
 * `enabled: false`) it returns the app behind its compression layer, as it would run uncached.
 * @param {Handler} app the framework, answering in identity
 * @param {{ enabled?: boolean, maxBytes?: number, compress?: Middleware, renderDeadlineMs?: number }} [opts] `compress`: the
 *   connect-style compression layer clients' misses and pass-throughs go through
 * @returns {Handler & { bytes?: () => number }}
 */
export function responseCache(app, opts = {}) {
  const { compress } = opts;
  /** @type {Handler} The app as it serves a client without the cache. */
  const direct = compress ? (req, res) => compress(req, res, () => app(req, res)) : app;
  const enabled = opts.enabled ?? (process.env.RESPONSE_CACHE ?? '').toLowerCase() !== 'off';
  if (!enabled) return direct;
  const maxBytes = opts.maxBytes ?? Number(process.env.RESPONSE_CACHE_MB || 64) * 2 ** 20;
  const renderDeadlineMs = opts.renderDeadlineMs ?? RENDER_DEADLINE_MS;

  /** @type {LRUCache<string, Answer>} */
  const store = new LRUCache({ maxSize: maxBytes, sizeCalculation: (e) => e.size ?? 1 });
  /** Renders under way, one per key: concurrent misses wait on it. @type {Map<string, Promise<{ entry: Answer | null, rendered: Rendered | null }>>} */
  const inflight = new Map();
  /** Keys whose last answer could not be stored; they skip the cache for a few seconds. */
  const pass = new LRUCache({
    maxSize: Math.max(2 ** 16, Math.min(4 * 2 ** 20, maxBytes / 16)),
    sizeCalculation: (_, key) => 2 * key.length + STRING_BYTES + SLOT_BYTES,
    ttl: PASS_MS,
  });

  /** Runs the app on an injected GET carrying the client's headers, minus the ones above. @returns {Promise<Rendered>} */
  async function render(req) {
    const headers = { ...req.headers };
    for (const h of NOT_FORWARDED) delete headers[h];
    const r = await inject(app, { method: 'GET', url: req.url, headers, remoteAddress: req.socket?.remoteAddress });
    return { status: r.statusCode, headers: /** @type {any} */ (r.headers), body: own(r.rawPayload) };
  }

  /**
   * Serves `req` as the app would without the cache (through the compression layer, in the client's
   * encoding), marked `X-Cache: MISS`, and resolves to a copy of what the app wrote (status, headers
   * and identity body), or null when the app did not finish or the body outgrew the bound.
   * @returns {Promise<Rendered | null>}
   */
  function renderInto(req, res) {
    return new Promise((resolve) => {
      const run = () => {
        tap(res, maxBytes, resolve);
        app(req, res);
      };
      if (compress) compress(req, res, run);
      else run();
    });
  }

  /** An Answer to store when `r` may be stored for `req`, else null. */
  function toEntry(key, req, r) {
    const cc = String(r.headers['cache-control'] ?? '');
    const cdn = r.headers['cdn-cache-control'];
    if (r.status !== 200 || r.headers['set-cookie'] || r.headers['content-encoding'] || /no-store|private/.test(`${cc},${cdn ?? ''}`)) return null;
    const vary = varyOf(r.headers);
    // The targeted header, when present, is the only one a shared cache reads. Encodings are this
    // layer's own variants of one entry, so Accept-Encoding is not matched on. The policy keeps only
    // the headers it reads, and of the request only what it compares.
    /** @type {Record<string, string>} */
    const policyHeaders = { 'cache-control': String(cdn ?? cc) };
    for (const name of POLICY_HEADERS) if (r.headers[name] !== undefined) policyHeaders[name] = String(r.headers[name]);
    if (vary.length) policyHeaders.vary = vary.join(', ');
    const made = pick(req.headers, ['host', 'cache-control', 'pragma', ...vary.map((v) => v.toLowerCase())]);
    // The policy only asks whether the request had credentials; their value is not kept.
    if (req.headers.authorization && made.authorization === undefined) made.authorization = '(present)';
    const policy = new CachePolicy({ url: req.url, method: 'GET', headers: made }, { status: r.status, headers: policyHeaders }, { shared: true });
    if (!policy.storable() || policy.timeToLive() <= 0) return null;
    const entry = prepare(r);
    entry.key = key;
    entry.policy = policy;
    // For the fast path of a hit: until when the copy is fresh, and the headers it varies on.
    entry.freshUntil = Date.now() + (policy.maxAge() - policy.age()) * 1000;
    entry.vary = vary.map((v) => v.toLowerCase());
    entry.made = made;
    entry.size = sizeOf(entry, policyHeaders);
    return entry;
  }

  /**
   * Shares a render under way for `key` with concurrent misses, and stores its answer when it may be stored.
   * Returns the render itself; what waiters get is the same answer, or a failure once the render has held the
   * key past the deadline (a render that never ends must not hold its key, and its waiters, for ever).
   */
  function share(key, req, rendering) {
    const p = rendering.then((rendered) => {
      const entry = rendered && toEntry(key, req, rendered);
      if (entry) store.set(key, entry, { ttl: /** @type {CachePolicy} */ (entry.policy).timeToLive() });
      else if (rendered) {
        store.delete(key);
        // Not storable: later requests for this key go straight to the app for a while ("hit for pass").
        pass.set(key, true);
      }
      return { entry, rendered };
    });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => {
        console.warn(`[cache] render of ${key} still running after ${renderDeadlineMs / 1000} s: its key is free again`);
        reject(new Error(`the render it waited on ran over ${renderDeadlineMs / 1000} s`));
      }, renderDeadlineMs);
      timer.unref?.();
    });
    const mark = /** @type {typeof p} */ (Promise.race([p, late]));
    inflight.set(key, mark);
    // Settled either way; a failure is for the waiters (and the render's own caller) to handle, not unhandled here.
    mark
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        if (inflight.get(key) === mark) inflight.delete(key);
      });
    return p;
  }

  /**
   * A miss. The first one of a key renders straight into its client's response and is shared; a
   * concurrent one is served the shared answer when it may serve this request, else renders its own.
   */
  async function miss(key, req, res) {
    const shared = inflight.get(key);
    if (!shared && req.method === 'GET' && !conditional(req)) {
      await share(key, req, renderInto(req, res));
      return;
    }
    const { entry, rendered } = await (shared ?? share(key, req, render(req)));
    if (entry && entry.policy?.satisfiesWithoutRevalidation(asGet(req))) return send(req, res, entry, 'MISS');
    // What may not be stored may not be shared either (it may be personal): a waiter renders its own.
    if (!shared && rendered) return send(req, res, prepare(rendered), 'MISS');
    await renderInto(req, res);
  }

  /** Serves `answer`, compressing the variant this client needs first if no client asked for it before. */
  function send(req, res, answer, state) {
    const enc = answer.compress ? encodingOf(req) : 'identity';
    if (!answer.bodies[enc]) {
      answer.bodies[enc] = own(encode(enc, /** @type {Buffer} */ (answer.bodies.identity)));
      answer.lines[enc] = linesOf(answer.headers, /** @type {Buffer} */ (answer.bodies[enc]), enc);
      // A stored entry grows by its new variant: the store weighs it again (and may let others go).
      // The store re-weighs only a new value, so the entry goes back as a copy sharing its parts.
      const stored = answer.key ? store.peek(answer.key) : undefined;
      if (stored?.bodies === answer.bodies && stored.size !== undefined) {
        store.set(/** @type {string} */ (answer.key), { ...stored, size: stored.size + variantBytes(stored, enc) }, { noUpdateTTL: true });
      }
    }
    write(req, res, answer, enc, state);
  }

  /** @type {Handler & { bytes?: () => number }} */
  const handler = (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isMcp(req.url) || isStream(req.url)) return direct(req, res);
    const key = cacheKey(req);
    const entry = store.get(key);
    const counter = metrics().responseCache;
    if (entry && plainHit(entry, req)) {
      counter.inc({ result: 'hit' });
      return send(req, res, entry, 'HIT');
    }
    const verdict = entry?.policy?.evaluateRequest(asGet(req));
    if (entry && verdict?.response) {
      if (verdict.revalidation && !inflight.has(key)) {
        // Past its lifetime, within stale-while-revalidate: one background render refreshes it. The render
        // under way is the only mark, gone when it ends however it ends. A server error fails the refresh
        // like a render that broke off: the stale copy stays, and the next stale request tries again.
        const refresh = render(req).then((r) => {
          if (r.status >= 500) throw new Error(`the app answered ${r.status}`);
          return r;
        });
        share(key, req, refresh).catch((err) => {
          console.warn(`[cache] refresh of ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
        });
      }
      counter.inc({ result: 'hit' });
      return send(req, res, entry, verdict.revalidation ? 'STALE' : 'HIT');
    }
    if (!entry && pass.get(key)) return direct(req, res);
    counter.inc({ result: 'miss' });
    miss(key, req, res).catch((err) => {
      console.warn(`[cache] render of ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) direct(req, res);
    });
  };
  /** Bytes held, for tests and monitoring. */
  handler.bytes = () => store.calculatedSize;
  return handler;
}

/**
 * Installs a tap on `res`, inside the compression layer: the app's status, headers and identity
 * bytes are copied as they go by (once headers are set, `X-Cache: MISS` and `Age: 0` join them),
 * and `done` gets the copy when the app ends the response, or null if it never does.
 * @param {import('node:http').ServerResponse} res
 * @param {number} limit bodies larger than this are not kept
 * @param {(r: Rendered | null) => void} done
 */
function tap(res, limit, done) {
  const { writeHead, write, end } = res;
  /** @type {{ status: number, headers: Record<string, any> } | null} */
  let head = null;
  /** @type {Buffer[] | null} */
  let chunks = [];
  let length = 0;
  let finished = false;
  const begin = (/** @type {number} */ status, /** @type {any} */ given) => {
    if (head) return;
    head = { status, headers: { ...res.getHeaders(), ...headerObject(given) } };
    if (!res.headersSent) {
      res.setHeader('x-cache', 'MISS');
      res.setHeader('age', '0');
    }
  };
  /** Keeps a copy of the chunk's bytes; answers the bytes it made of a string, which are then what is sent. */
  const keep = (/** @type {any} */ chunk, /** @type {any} */ encoding) => {
    if (!chunks || chunk == null || typeof chunk === 'function') return undefined;
    const b = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? /** @type {BufferEncoding} */ (encoding) : 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    length += b.length;
    if (length > limit) chunks = null;
    else chunks.push(b);
    return typeof chunk === 'string' ? b : undefined;
  };
  /**
   * The arguments of a write or an end with a string chunk replaced by its bytes, made once by `keep`: Node would
   * otherwise encode the string again to send it (a page is one string of thousands of pieces, costly to encode).
   */
  const sent = (/** @type {IArguments} */ args, /** @type {Buffer | undefined} */ bytes) =>
    bytes ? [bytes, ...Array.prototype.slice.call(args, typeof args[1] === 'string' ? 2 : 1)] : args;
  const finish = () => {
    if (finished) return;
    finished = true;
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
    done(head && chunks ? { status: head.status, headers: head.headers, body: concat(chunks, length) } : null);
  };
  res.writeHead = /** @type {any} */ (
    function (/** @type {number} */ status, /** @type {any} */ reason, /** @type {any} */ given) {
      begin(status, typeof reason === 'string' ? given : reason);
      return writeHead.apply(this, /** @type {any} */ (arguments));
    }
  );
  res.write = /** @type {any} */ (
    function (/** @type {any} */ chunk, /** @type {any} */ encoding) {
      begin(res.statusCode, undefined);
      return write.apply(this, /** @type {any} */ (sent(arguments, keep(chunk, encoding))));
    }
  );
  res.end = /** @type {any} */ (
    function (/** @type {any} */ chunk, /** @type {any} */ encoding) {
      begin(res.statusCode, undefined);
      const out = end.apply(this, /** @type {any} */ (sent(arguments, keep(chunk, encoding))));
      finish();
      return out;
    }
  );
  res.once('close', () => {
    if (finished) return;
    chunks = null;
    finish();
  });
}

/** Headers given to writeHead (an object or a flat [name, value, ...] list) as a lower-case object. */
function headerObject(given) {
  /** @type {Record<string, any>} */
  const out = {};
  if (Array.isArray(given)) {
    const pairs = Array.isArray(given[0]) ? given : Array.from({ length: given.length / 2 }, (_, i) => [given[2 * i], given[2 * i + 1]]);
    for (const [name, value] of pairs) {
      const k = String(name).toLowerCase();
      out[k] = k in out ? [out[k], value].flat() : value;
    }
  } else if (given) for (const [name, value] of Object.entries(given)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/** Headers and identity body of a rendered answer, ready to serve; other encodings are made on demand. @returns {Answer} */
function prepare(r) {
  /** @type {Record<string, string | string[]>} */
  const headers = {};
  for (const [name, value] of Object.entries(r.headers))
    if (!NOT_STORED.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  const compress = r.body.length >= COMPRESS_THRESHOLD && compressible(String(r.headers['content-type'] ?? '')) === true;
  const vary = varyOf(r.headers);
  if (compress) vary.push('Accept-Encoding');
  if (vary.length) headers.vary = vary.join(', ');
  else delete headers.vary;
  // Each variant's header lines, flat ([name, value, ...]) as writeHead takes them, made once.
  return { status: r.status, headers, compress, bodies: { identity: r.body }, lines: { identity: linesOf(headers, r.body, 'identity') } };
}

function linesOf(headers, body, enc) {
  return [...flat(headers), 'content-length', String(body.length), ...(enc === 'identity' ? [] : ['content-encoding', enc])];
}

/**
 * What an entry keeps alive, in bytes: its bodies, its header strings and arrays, its policy and the
 * store's slot for its key. Counted high rather than low: strings as two bytes a character.
 * @param {Answer} entry
 * @param {Record<string, string>} policyHeaders
 */
function sizeOf(entry, policyHeaders) {
  let n = ENTRY_BYTES + SLOT_BYTES + str(/** @type {string} */ (entry.key));
  for (const [name, value] of Object.entries(entry.headers)) n += SLOT + str(name) + [value].flat().reduce((m, v) => m + SLOT + str(v), 0);
  for (const [name, value] of Object.entries(policyHeaders)) n += SLOT + str(name) + str(value);
  for (const [name, value] of Object.entries(entry.made ?? {})) n += SLOT + str(name) + [value ?? ''].flat().reduce((m, v) => m + str(v), 0);
  for (const enc of Object.keys(entry.bodies)) n += variantBytes(entry, /** @type {'identity'} */ (enc));
  return n;
}

/** One variant's body and header lines (the lines share the header strings, counted once above). */
function variantBytes(entry, enc) {
  return BUFFER_BYTES + /** @type {Buffer} */ (entry.bodies[enc]).length + SLOT * (entry.lines[enc].length + 4) + 2 * STRING_BYTES;
}

function str(s) {
  return STRING_BYTES + 2 * s.length;
}

/** The named headers of a request, those it has. */
function pick(headers, names) {
  /** @type {Record<string, string | string[] | undefined>} */
  const out = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

/**
 * Chunks as one Buffer of its own. Buffer.concat and zlib hand out slices of shared or oversized
 * memory (a small Buffer from the 8 KB pool keeps the whole pool alive, a zlib result keeps its
 * 16 KB output buffer), which a long-lived entry must not hold.
 * @param {Buffer[]} chunks
 * @param {number} length
 */
function concat(chunks, length) {
  const out = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const c of chunks) at += c.copy(out, at);
  return out;
}

/** @param {Buffer} b */
function own(b) {
  return b.byteOffset === 0 && b.buffer.byteLength === b.length ? b : concat([b], b.length);
}

/**
 * The common hit, decided without building a verdict: the copy is within its lifetime and the
 * request neither sets caching directives nor differs in a header the answer varies on. Anything
 * else is left to http-cache-semantics.
 */
function plainHit(entry, req) {
  const h = req.headers;
  if (Date.now() >= entry.freshUntil || h['cache-control'] !== undefined || h.pragma !== undefined) return false;
  for (const name of entry.vary) if (h[name] !== entry.made[name]) return false;
  return true;
}

/** The request as the GET that was stored: HEAD is answered from the GET entry. */
function asGet(req) {
  return { url: req.url, method: 'GET', headers: req.headers };
}

/** The response's Vary names, without Accept-Encoding (this layer adds it back where it compresses). */
function varyOf(headers) {
  const names = String(headers.vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(names)].filter((v) => v.toLowerCase() !== 'accept-encoding');
}

function isMcp(url = '') {
  return url === '/mcp' || url.startsWith('/mcp?') || url.startsWith('/mcp/');
}

/** GET /api/v1/stream: Server-Sent Events, written as they happen (decisions §21). */
function isStream(url = '') {
  return url === '/api/v1/stream' || url.startsWith('/api/v1/stream?') || url.startsWith('/api/v1/stream/');
}

function encode(enc, body) {
  return enc === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body);
}

/** Headers as a flat [name, value, ...] list; a header with several values gives one line each. */
function flat(headers) {
  return Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value]));
}

/**
 * Negotiated encodings by Accept-Encoding value: clients send few distinct values, so a hit skips the
 * parsing. Bounded whatever clients send: at most 256 values (least recently used go), each at most
 * MEMO_CHARS long (a longer one, which no browser sends, is negotiated every time and not kept).
 */
const negotiated = new LRUCache({ max: 256 });
const MEMO_CHARS = 128;

/** The client's preferred encoding among those a body can have. */
function encodingOf(req) {
  const accept = req.headers['accept-encoding'] ?? '';
  let enc = negotiated.get(accept);
  if (!enc) {
    enc = new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS }) ?? 'identity';
    if (accept.length <= MEMO_CHARS) negotiated.set(accept, enc);
  }
  return enc;
}

/**
 * Writes an answer's variant `enc`; HEAD gets the headers only.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Answer} answer
 * @param {string} enc
 * @param {string} state
 */
function write(req, res, answer, enc, state) {
  const age = answer.policy ? String(Math.floor(answer.policy.age())) : '0';
  if (holds(req, answer)) {
    // The client's copy is this one: the same headers, no body (nor its length or encoding).
    metrics().responseCache.inc({ result: 'not_modified' });
    res.writeHead(304, [...flat(answer.headers), 'x-cache', state, 'age', age]);
    res.end();
    return;
  }
  res.writeHead(answer.status, [...answer.lines[enc], 'x-cache', state, 'age', age]);
  res.end(req.method === 'HEAD' ? undefined : answer.bodies[enc]);
}

/** Whether the request carries validators. */
function conditional(req) {
  return req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
}

/** Whether the request already holds `answer` (a 200 with an ETag). */
function holds(req, answer) {
  // The framework hands some headers over as one-element lists.
  const [etag] = [answer.headers.etag].flat();
  if (answer.status !== 200 || typeof etag !== 'string' || !conditional(req)) return false;
  const [date] = [answer.headers['last-modified']].flat();
  const modified = typeof date === 'string' ? Date.parse(date) : NaN;
  return notModified((name) => /** @type {string | undefined} */ (req.headers[name]), etag, Number.isFinite(modified) ? modified : null);
}
