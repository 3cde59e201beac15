// A shared response cache in front of the app, obeying the app's caching headers as a CDN would:
// - keyed by host, path and the full query string (`cacheKey`), so a throwaway parameter bypasses it;
// - freshness from `CDN-Cache-Control` (RFC 9213: the targeted header replaces Cache-Control for a
//   shared cache) else `Cache-Control`, with the HTTP caching rules of RFC 9111 (Vary, Age, request
//   directives) left to http-cache-semantics;
// - only 200 answers to GET/HEAD without no-store, private or Set-Cookie are stored;
// - each stored answer is compressed once, when stored (gzip and brotli beside identity), so a hit
//   only copies bytes and never enters the framework;
// - concurrent misses of one key make one render; a copy past its lifetime but within
//   stale-while-revalidate is served at once (`X-Cache: STALE`) while one background render refreshes it;
// - memory is bounded: least recently used entries go first (lru-cache, sized in bytes).
// Renders run the app on an injected request (light-my-request), the same way for a client's miss and
// for a background refresh that has no client: the app answers in identity and this layer compresses.
// /mcp and every other method pass straight through.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import compressible from 'compressible';
import CachePolicy from 'http-cache-semantics';
import { inject } from 'light-my-request';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { publicOrigin } from '../lib/http/public-origin.mjs';

/** Bodies under this many bytes are stored and served uncompressed (not worth it). */
const COMPRESS_THRESHOLD = 1024;
/** How long a key whose answer could not be stored goes straight to the app. */
const PASS_MS = 5000;
/** Encodings in the order they are preferred when a client accepts several equally. */
const ENCODINGS = ['br', 'gzip', 'identity'];
/** Headers that describe one connection or one encoding, never a stored answer. */
const NOT_STORED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'date', 'age', 'x-cache']);
/** Request headers a render must not see: the stored answer is shared and complete, in identity. */
const NOT_FORWARDED = ['accept-encoding', 'if-none-match', 'if-modified-since', 'range', 'if-range'];

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
 * @typedef {{ policy: CachePolicy, status: number, headers: Record<string, string | string[]>,
 *   bodies: Partial<Record<'br' | 'gzip' | 'identity', Buffer>>, size: number, refreshing: boolean }} Entry
 * @typedef {{ status: number, headers: Record<string, string | string[]>, body: Buffer }} Rendered
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} Handler
 */

/**
 * Wraps `app` (the compression layer and the framework) in the cache. With RESPONSE_CACHE=off
 * (or `enabled: false`) it returns `app` itself.
 * @param {Handler} app
 * @param {{ enabled?: boolean, maxBytes?: number }} [opts]
 * @returns {Handler & { bytes?: () => number }}
 */
export function responseCache(app, opts = {}) {
  const enabled = opts.enabled ?? (process.env.RESPONSE_CACHE ?? '').toLowerCase() !== 'off';
  if (!enabled) return app;
  const maxBytes = opts.maxBytes ?? Number(process.env.RESPONSE_CACHE_MB || 64) * 2 ** 20;

  /** @type {LRUCache<string, Entry>} */
  const store = new LRUCache({ maxSize: maxBytes, sizeCalculation: (e) => e.size });
  /** Renders under way, one per key: concurrent misses wait on it. @type {Map<string, Promise<{ entry: Entry | null, rendered: Rendered }>>} */
  const inflight = new Map();
  /** Keys whose last answer could not be stored; they skip the cache for a few seconds. */
  const pass = new LRUCache({ maxSize: 4 * 2 ** 20, sizeCalculation: (_, key) => key.length + 64, ttl: PASS_MS });

  /** Runs the app on an injected GET carrying the client's headers, minus the ones above. @returns {Promise<Rendered>} */
  async function render(req) {
    const headers = { ...req.headers };
    for (const h of NOT_FORWARDED) delete headers[h];
    const r = await inject(app, { method: 'GET', url: req.url, headers, remoteAddress: req.socket?.remoteAddress });
    return { status: r.statusCode, headers: /** @type {any} */ (r.headers), body: r.rawPayload };
  }

  /** Headers and bodies of a rendered answer, ready to serve; variants are compressed here, once. */
  function prepare(r, eager) {
    /** @type {Record<string, string | string[]>} */
    const headers = {};
    for (const [name, value] of Object.entries(r.headers)) if (!NOT_STORED.has(name) && value !== undefined) headers[name] = value;
    const compress = r.body.length >= COMPRESS_THRESHOLD && compressible(String(r.headers['content-type'] ?? '')) === true;
    const vary = varyOf(r.headers);
    if (compress) vary.push('Accept-Encoding');
    if (vary.length) headers.vary = vary.join(', ');
    else delete headers.vary;
    const out = { status: r.status, headers, bodies: { identity: r.body }, compress, lines: {} };
    if (compress && eager) for (const enc of ['gzip', 'br']) out.bodies[enc] = encode(enc, r.body);
    // Each variant's header lines, flat ([name, value, ...]) as writeHead takes them, made once.
    for (const [enc, body] of Object.entries(out.bodies)) {
      out.lines[enc] = [...flat(headers), 'content-length', String(body.length), ...(enc === 'identity' ? [] : ['content-encoding', enc])];
    }
    return out;
  }

  /** An Entry when `r` may be stored for `req`, else null. */
  function toEntry(req, r) {
    const cc = String(r.headers['cache-control'] ?? '');
    const cdn = r.headers['cdn-cache-control'];
    if (r.status !== 200 || r.headers['set-cookie'] || r.headers['content-encoding'] || /no-store|private/.test(`${cc},${cdn ?? ''}`)) return null;
    // The targeted header, when present, is the only one a shared cache reads.
    // Encodings are this layer's own variants of one entry, so Accept-Encoding is not matched on.
    const policy = new CachePolicy(
      asGet(req),
      { status: r.status, headers: { ...r.headers, 'cache-control': String(cdn ?? cc), vary: varyOf(r.headers).join(', ') } },
      { shared: true },
    );
    if (!policy.storable() || policy.timeToLive() <= 0) return null;
    const ready = prepare(r, true);
    const size = Object.values(ready.bodies).reduce((n, b) => n + b.length, 0) + JSON.stringify(ready.headers).length + 256;
    // For the fast path of a hit: until when the copy is fresh, and the request it was made for.
    const freshUntil = Date.now() + (policy.maxAge() - policy.age()) * 1000;
    return { ...ready, policy, size, refreshing: false, freshUntil, vary: varyOf(r.headers).map((v) => v.toLowerCase()), made: req.headers };
  }

  /** Renders `key` once for every concurrent miss and stores the answer when it may be stored. */
  function fill(key, req) {
    let p = inflight.get(key);
    if (!p) {
      p = render(req)
        .then((rendered) => {
          const entry = toEntry(req, rendered);
          if (entry) store.set(key, entry, { ttl: entry.policy.timeToLive() });
          else {
            store.delete(key);
            // Not storable: later requests for this key go straight to the app for a while ("hit for pass").
            pass.set(key, true);
          }
          return { entry, rendered };
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, p);
    }
    return p;
  }

  /** A miss: the shared render when it may serve this request, else this request's own answer. */
  async function miss(key, req, res) {
    const leader = !inflight.has(key);
    const { entry, rendered } = await fill(key, req);
    if (entry && entry.policy.satisfiesWithoutRevalidation(asGet(req))) return send(req, res, entry, 'MISS');
    // What may not be stored may not be shared either (it may be personal): a waiter renders its own.
    send(req, res, prepare(leader ? rendered : await render(req), false), 'MISS');
  }

  /** @type {Handler & { bytes?: () => number }} */
  const handler = (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isMcp(req.url)) return app(req, res);
    const key = cacheKey(req);
    const entry = store.get(key);
    if (entry && plainHit(entry, req)) return send(req, res, entry, 'HIT');
    const verdict = entry?.policy.evaluateRequest(asGet(req));
    if (entry && verdict?.response) {
      if (verdict.revalidation && !entry.refreshing) {
        // Past its lifetime, within stale-while-revalidate: one background render refreshes it.
        entry.refreshing = true;
        fill(key, req).catch((err) => {
          entry.refreshing = false;
          console.warn(`[cache] refresh of ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
        });
      }
      return send(req, res, entry, verdict.revalidation ? 'STALE' : 'HIT');
    }
    if (!entry && pass.get(key)) return app(req, res);
    miss(key, req, res).catch((err) => {
      console.warn(`[cache] render of ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) app(req, res);
    });
  };
  /** Bytes held, for tests and monitoring. */
  handler.bytes = () => store.calculatedSize;
  return handler;
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

function encode(enc, body) {
  return enc === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body);
}

/** Headers as a flat [name, value, ...] list; a header with several values gives one line each. */
function flat(headers) {
  return Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value]));
}

/** Negotiated encodings by Accept-Encoding value: clients send few distinct values, so a hit skips the parsing. */
const negotiated = new LRUCache({ max: 256 });

/** The client's preferred encoding among those a body can have. */
function encodingOf(req) {
  const accept = req.headers['accept-encoding'] ?? '';
  let enc = negotiated.get(accept);
  if (!enc) negotiated.set(accept, (enc = new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS }) ?? 'identity'));
  return enc;
}

/**
 * Writes a stored or rendered answer in the encoding the client prefers; HEAD gets the headers only.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function send(req, res, answer, state) {
  const enc = answer.compress ? encodingOf(req) : 'identity';
  let body = answer.bodies[enc];
  if (!body) {
    // An answer that is not stored is compressed here, for this client only.
    body = answer.bodies[enc] = encode(enc, answer.bodies.identity);
    answer.lines[enc] = [...flat(answer.headers), 'content-length', String(body.length), 'content-encoding', enc];
  }
  const age = answer.policy ? String(Math.floor(answer.policy.age())) : '0';
  res.writeHead(answer.status, [...answer.lines[enc], 'x-cache', state, 'age', age]);
  res.end(req.method === 'HEAD' ? undefined : body);
}
