// Which methods each path takes, decided before the framework sees a request. Next answers TRACE,
// and any method other than GET and HEAD on its static files, with a 500, answers unknown methods on
// route handlers with an empty 400; Node answers methods its parser does not know (lower-case or
// unknown tokens) with a bare 400 and closes the socket on CONNECT. Every one of those gets the
// documented answer here instead:
//
// - the API (/api/*, /llms.txt) and /mcp: their routes answer every method. The allowed ones pass;
//   any other is handed to the route as a GET marked with the refused method, and the route answers
//   its own 405 (the REST ones with data_state, /mcp with a JSON-RPC error);
// - everything else (pages, widget pages, static files): GET and HEAD, OPTIONS on /embed.js (the
//   one file other sites fetch), anything else 405 JSON with `Allow`.
//
// The price alerts (decisions §28) are the one REST resource that takes more than GET: POST on
// /api/v1/alerts, DELETE on an alert's manage URL /api/v1/alerts/{id}.
//
// Only POST /mcp and POST /api/v1/alerts read a request body. Any other request that comes with one is answered without
// reading it and the connection is closed, so an unwanted upload is never buffered or drained.

import http from 'node:http';

/** Set on a refused request handed to its route; lib/http/route.ts reads the same name. */
const REFUSED_METHOD_HEADER = 'x-refused-method';

/**
 * @typedef {(req: http.IncomingMessage, res: http.ServerResponse) => void} Listener
 * @typedef {{ pass: string[], byRoute?: boolean, allow?: string, cors?: boolean }} Rule
 */

/** @type {Record<'api' | 'alerts' | 'alert' | 'mcp' | 'embed' | 'page', Rule>} */
const RULES = {
  api: { pass: ['GET', 'HEAD', 'OPTIONS'], byRoute: true },
  alerts: { pass: ['POST', 'OPTIONS'], byRoute: true },
  alert: { pass: ['GET', 'HEAD', 'DELETE', 'OPTIONS'], byRoute: true },
  // The route itself answers GET (and so HEAD) with its 405.
  mcp: { pass: ['POST', 'OPTIONS', 'GET', 'HEAD'], byRoute: true },
  embed: { pass: ['GET', 'HEAD'], allow: 'GET, HEAD, OPTIONS', cors: true },
  page: { pass: ['GET', 'HEAD'], allow: 'GET, HEAD' },
};

/**
 * Installs the method rules on `server`, for every request it receives, parsed or not.
 * @param {http.Server} server
 * @param {{ app: Listener, serve: Listener }} to `serve`: the normal way through (cache, compression,
 *   framework); `app`: the framework alone, for a refused request its route answers.
 */
export function handleMethods(server, { app, serve }) {
  /** @type {Listener} */
  const onRequest = (req, res) => {
    // A client may not mark its own request.
    delete req.headers[REFUSED_METHOD_HEADER];
    // Nothing here upgrades: with no 'upgrade' listener Node hands such requests over as ordinary
    // ones, and so they go on (server.mjs keeps the framework's own upgrade hook off this server).
    delete req.headers.upgrade;
    // An absolute-form target ("GET http://host/path", meant for proxies) names a host of the client's
    // choosing, which the framework would redirect to: only its path and query go on.
    if (ABSOLUTE_FORM.test(req.url ?? '')) req.url = originForm(req.url ?? '');
    const method = req.method ?? '';
    const path = pathOf(req.url);
    const rule = ruleFor(path);
    if (hasBody(req) && !readsBody(method, path)) res.shouldKeepAlive = false;
    if (rule.pass.includes(method)) return serve(req, res);
    if (method === 'OPTIONS' && rule.cors) return preflight(req, res, rule);
    if (rule.byRoute) {
      req.headers[REFUSED_METHOD_HEADER] = method;
      req.method = 'GET';
      delete req.headers['content-length'];
      delete req.headers['transfer-encoding'];
      return app(req, res);
    }
    notAllowed(res, rule);
  };

  server.on('request', onRequest);
  // Invite the body only where it is read; anything else is answered straight away.
  server.on('checkContinue', (req, res) => {
    if (readsBody(req.method ?? '', pathOf(req.url))) res.writeContinue();
    onRequest(req, res);
  });
  // Nothing here tunnels: CONNECT is answered as an ordinary request, then the connection closes.
  server.on('connect', (req, socket) => onRequest(req, responseOn(socket, req)));
  server.on('clientError', (/** @type {Error & { code?: string, rawPacket?: Buffer }} */ err, /** @type {import('node:net').Socket} */ socket) => {
    // (Not while a pipelined response is still being written on the socket.)
    const free = socket.writable && !answered.has(socket) && !(/** @type {any} */ (socket)._httpMessage);
    const req = err.code === 'HPE_INVALID_METHOD' && free ? unparsedRequest(err.rawPacket, socket) : null;
    if (req) return onRequest(req, responseOn(socket, req));
    if (!answered.has(socket)) badRequest(err, socket);
  });
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/** @param {string} url */
function originForm(url) {
  try {
    const { pathname, search } = new URL(url);
    return pathname + search;
  } catch {
    return '/';
  }
}

/** @param {string | undefined} url @returns {string} the decoded path, '' for '*' or an authority (CONNECT) */
function pathOf(url = '') {
  if (ABSOLUTE_FORM.test(url)) url = originForm(url);
  if (!url.startsWith('/')) return '';
  let path = url.replace(/[?#].*$/s, '').replace(/^\/+/, '/');
  try {
    path = decodeURIComponent(path);
  } catch {
    /* classify as sent */
  }
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Whether the request's body is read: POST /mcp and POST /api/v1/alerts. @param {string} method @param {string} path */
function readsBody(method, path) {
  return method === 'POST' && (path === '/mcp' || path === ALERTS_PATH);
}

const ALERTS_PATH = '/api/v1/alerts';

/** @param {string} path @returns {Rule} */
function ruleFor(path) {
  if (path === '/mcp') return RULES.mcp;
  if (path === ALERTS_PATH) return RULES.alerts;
  if (path.startsWith(`${ALERTS_PATH}/`) && !path.slice(ALERTS_PATH.length + 1).includes('/')) return RULES.alert;
  if (path === '/api' || path.startsWith('/api/') || path === '/llms.txt') return RULES.api;
  if (path === '/embed.js') return RULES.embed;
  return RULES.page;
}

/** @param {http.IncomingMessage} req */
function hasBody(req) {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {Rule} rule */
function preflight(req, res, rule) {
  /** @type {Record<string, string>} */
  const headers = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': rule.allow ?? '',
    'Access-Control-Max-Age': '86400',
    'Cache-Control': 'public, max-age=86400',
  };
  const requested = req.headers['access-control-request-headers'];
  if (requested) headers['Access-Control-Allow-Headers'] = requested;
  res.writeHead(204, headers).end();
}

/** @param {http.ServerResponse} res @param {Rule} rule */
function notAllowed(res, rule) {
  const body = JSON.stringify({ error: 'Method not allowed' });
  res.writeHead(405, {
    Allow: rule.allow ?? '',
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...(rule.cors ? { 'Access-Control-Allow-Origin': '*' } : {}),
  });
  res.end(body);
}

/** Sockets answered outside Node's parser: a second parse error on one of them is not answered again. */
const answered = new WeakSet();

/**
 * A response written straight to a socket Node's parser has let go of; the socket closes after it.
 * @param {import('node:stream').Duplex} socket
 * @param {http.IncomingMessage} req
 */
function responseOn(socket, req) {
  answered.add(socket);
  socket.on('error', () => {});
  socket.pause();
  if (!req.complete) {
    req.complete = true;
    req.push(null);
  }
  const res = new http.ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(/** @type {import('node:net').Socket} */ (socket));
  res.on('finish', () => socket.end(() => socket.destroy()));
  return res;
}

/**
 * The request behind a method token Node's parser refuses, rebuilt from the bytes it saw: the
 * request line and the Host header are all an answer needs.
 * @param {Buffer | undefined} raw
 * @param {import('node:net').Socket} socket
 */
function unparsedRequest(raw, socket) {
  const head = raw?.toString('latin1').split('\r\n\r\n')[0] ?? '';
  const [line, ...fields] = head.split(/\r?\n/);
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}) (\S{1,8192}) HTTP\/1\.[01]$/.exec(line);
  if (!match) return null;
  const req = new http.IncomingMessage(socket);
  req.method = match[1];
  req.url = match[2];
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  const host = fields.map((f) => /^host:[ \t]*([^\s]+)[ \t]*$/i.exec(f)?.[1]).find(Boolean);
  req.headers = host ? { host } : {};
  req.rawHeaders = host ? ['Host', host] : [];
  return req;
}

/**
 * What Node itself answers to a request it cannot parse, when no listener takes over.
 * @param {Error & { code?: string }} err
 * @param {import('node:stream').Duplex} socket
 */
function badRequest(err, socket) {
  if (socket.writable && !(/** @type {any} */ (socket)._httpMessage?.headersSent)) {
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
}
