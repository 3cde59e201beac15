// The public origin every absolute link is built from: spot `docs`, the OpenAPI `servers` URL,
// widget attribution, code samples in the docs and llms.txt, MCP results. Plain JavaScript with no
// dependencies, so the app and server.mjs (run by plain node, which keys its response cache on the
// origin) share this one implementation; the types are in public-origin.d.mts.
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
  if (trustsProxy()) {
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
  return process.env.TRUST_PROXY === '1' && !configuredOrigin() ? FORWARDED_VARY : null;
}

function trustsProxy() {
  return process.env.TRUST_PROXY === '1' || Boolean(process.env.VERCEL);
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

/** @param {string | URL | undefined} url */
function urlHost(url) {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
