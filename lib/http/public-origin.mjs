// What the forwarded headers are trusted for: the public origin every absolute link is built from
// (spot `docs`, the OpenAPI `servers` URL, widget attribution, code samples in the docs and
// llms.txt, MCP results), and the client address per-client limits count by. Plain JavaScript with
// no dependencies, so the app and server.mjs (run by plain node, which keys its response cache on
// the origin and passes the socket address on) share this one implementation; the types are in
// public-origin.d.mts.
//
// `PUBLIC_URL` wins when set and valid. Otherwise the request's own Host; X-Forwarded-Proto and
// X-Forwarded-Host count only behind a proxy that is trusted to set them (`TRUST_PROXY=1`, or Vercel,
// whose edge always sets them), and only as http/https with a well-formed host and port. Nothing a
// client sends can put another scheme, a path or a user name into a link.

// Underscores are not DNS, but container and service names use them.
const DNS_LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
/** A host name, an IPv4 address or a bracketed IPv6 address, then an optional port. */
const HOST = new RegExp(`^(?:${DNS_LABEL}(?:\\.${DNS_LABEL})*|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?$`, 'i');

/** Vary on these when the origin follows them, so a shared cache keeps one copy per origin. */
const FORWARDED_VARY = 'X-Forwarded-Proto, X-Forwarded-Host';

/** @type {Set<string>} Invalid PUBLIC_URL values already warned about (once each, not per request). */
const warned = new Set();

/**
 * The origin (`scheme://host[:port]`, no trailing slash) to put in links for this request.
 * @param {import('./public-origin.d.mts').HeaderSource} headers request headers: fetch `Headers` or Node's header object
 * @param {string | URL} [url] the request URL, whose host serves when the Host header is missing or malformed
 * @returns {string}
 */
export function publicOrigin(headers, url) {
  const configured = configuredOrigin();
  if (configured) return configured;
  let scheme = 'http';
  let host = null;
  if (proxyTrust()) {
    const proto = first(header(headers, 'x-forwarded-proto'))?.toLowerCase();
    if (proto === 'http' || proto === 'https') scheme = proto;
    host = validHost(first(header(headers, 'x-forwarded-host')));
  }
  host ??= validHost(header(headers, 'host')) ?? validHost(urlHost(url)) ?? 'localhost';
  return new URL(`${scheme}://${host}`).origin;
}

/**
 * The `Vary` value for cacheable responses that contain links, or null when no request header can
 * change their links. Only self-hosted behind a trusted proxy: Vercel's edge sets the forwarded headers
 * from the request's own host and scheme, which its cache key already holds.
 * @returns {string | null}
 */
export function linkVary() {
  return proxyTrust() === 'proxy' && !configuredOrigin() ? FORWARDED_VARY : null;
}

/** Set by server.mjs on every request it passes on, replacing any value a client sent. */
export const SOCKET_ADDRESS_HEADER = 'x-socket-address';

/**
 * The client, for per-client limits: an IPv4 address, an IPv6 /64 such as `2001:db8:0:1::/64` (one
 * host is commonly given a whole /64), or `unknown`. On Vercel the platform's headers, which its
 * edge sets and clients cannot: `x-real-ip` (what the platform's own `ipAddress()` reads), then
 * `x-vercel-forwarded-for` and `x-forwarded-for`. Behind a trusted proxy the last X-Forwarded-For
 * hop, the one that proxy added: hops before it are whatever the client sent. Otherwise the socket
 * address server.mjs passes on.
 * @param {import('./public-origin.d.mts').HeaderSource} headers
 * @returns {string}
 */
export function clientAddress(headers) {
  const trust = proxyTrust();
  const socket = header(headers, SOCKET_ADDRESS_HEADER);
  const candidates =
    trust === 'vercel'
      ? [header(headers, 'x-real-ip'), first(header(headers, 'x-vercel-forwarded-for')), first(header(headers, 'x-forwarded-for'))]
      : trust === 'proxy'
        ? [last(header(headers, 'x-forwarded-for')), socket]
        : [socket];
  for (const value of candidates) {
    const key = addressKey(value);
    if (key) return key;
  }
  return 'unknown';
}

/**
 * Who writes the forwarded headers: `vercel` (the platform's edge), `proxy` (`TRUST_PROXY=1`: a
 * reverse proxy that sets them), or null (nobody trusted: a client could have written them).
 * @returns {'vercel' | 'proxy' | null}
 */
function proxyTrust() {
  if (process.env.VERCEL) return 'vercel';
  return process.env.TRUST_PROXY === '1' ? 'proxy' : null;
}

/** PUBLIC_URL as an origin, read each time (it may change between tests); null when unset or invalid. */
function configuredOrigin() {
  const value = process.env.PUBLIC_URL?.trim();
  if (!value) return null;
  let url = null;
  try {
    url = new URL(value);
  } catch {
    /* reported below */
  }
  const ok =
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !url.username &&
    !url.password &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    validHost(url.host);
  if (ok) return url.origin;
  if (!warned.has(value)) {
    warned.add(value);
    console.warn(`[origin] PUBLIC_URL ignored: ${JSON.stringify(value)} is not an http(s) origin such as https://gold.example`);
  }
  return null;
}

/**
 * @param {string | null | undefined} value
 * @returns {string | null} the host, lower-cased, when it is a well-formed host with an optional port 1-65535
 */
function validHost(value) {
  if (!value || value.length > 260) return null;
  const match = HOST.exec(value);
  if (!match) return null;
  if (match[1] !== undefined && (Number(match[1]) < 1 || Number(match[1]) > 65535)) return null;
  try {
    return new URL(`http://${value}`).host;
  } catch {
    return null;
  }
}

/** @param {import('./public-origin.d.mts').HeaderSource} headers @param {string} name */
function header(headers, name) {
  const value = typeof headers.get === 'function' ? headers.get(name) : /** @type {Record<string, unknown>} */ (headers)[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The first of a comma-separated list (a proxy chain), trimmed. @param {string | undefined} value */
function first(value) {
  return value?.split(',')[0].trim();
}

/** The last of a comma-separated list (the hop the nearest proxy added), trimmed. @param {string | undefined} value */
function last(value) {
  return value?.split(',').at(-1)?.trim();
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * An address as a limit key, or null when `value` is none: IPv4 in plain dotted form, IPv6 as its
 * /64, an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports IPv4
 * clients) as the IPv4 one. A port (`192.0.2.1:1234`, `[2001:db8::1]:1234`, as some proxies
 * write) and a zone (`fe80::1%eth0`) are dropped.
 * @param {string | undefined} value
 * @returns {string | null}
 */
function addressKey(value) {
  let text = value?.trim() ?? '';
  if (text.length > 100) return null;
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  text = text.replace(/%.*$/s, '');
  if (!text.includes(':')) return ipv4(text);
  let host = '';
  try {
    // The URL parser validates IPv6 and writes it canonically: lower case, compressed, hex only.
    host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = host.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** @param {string} text @returns {string | null} the address without leading zeros, or null */
function ipv4(text) {
  const parts = IPV4.exec(text)?.slice(1).map(Number);
  return parts && parts.every((n) => n <= 255) ? parts.join('.') : null;
}

/** @param {string | URL | undefined} url */
function urlHost(url) {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
