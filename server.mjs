// `npm start`: serves the built app (API, MCP, docs, widgets) on PORT, building first when no
// build exists. A small custom server around Next: a shared response cache in front (answers
// that say they may be cached are served from memory without entering Next; RESPONSE_CACHE=off
// turns it off), then compression by content negotiation, brotli when the client accepts it and
// gzip otherwise (`next start` only gzips).
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import module from 'node:module';
import path from 'node:path';
import compression from 'compression';
import { metrics, routeLabel } from './lib/core/metrics.mjs';
import { runShutdown } from './lib/core/shutdown.mjs';
import { SOCKET_ADDRESS_HEADER } from './lib/http/public-origin.mjs';
import { handleMethods } from './server/methods.mjs';
import { responseCache } from './server/response-cache.mjs';

const root = import.meta.dirname;
const distDir = process.env.NEXT_DIST_DIR || '.next';
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || '0.0.0.0';

if (!fs.existsSync(path.join(root, distDir, 'BUILD_ID'))) {
  console.log('No build found: running next build first.');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

process.env.NODE_ENV = 'production';
// A start after the first loads Next and the built routes from V8's code cache on disk (NODE_COMPILE_CACHE,
// else node-compile-cache in the system's temporary folder), about a third faster. Keyed by each file's
// content, so a new build is never served old code; where the folder cannot be written, nothing changes.
module.enableCompileCache();
// Next gets the configuration this build resolved (required-server-files.json), as its own standalone server does,
// rather than resolving next.config.ts again at each start: that loads the SWC compiler to transpile it and hashes
// every source file for SITE_BUILD (about 0.3 s of CPU per start, BENCHMARKS §18), and could describe sources
// changed since the build. A build folder without that file (not one `next build` writes) leaves Next to resolve it.
const resolvedConfig = path.join(root, distDir, 'required-server-files.json');
if (fs.existsSync(resolvedConfig)) {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(JSON.parse(fs.readFileSync(resolvedConfig, 'utf8')).config);
}
const { default: next } = await import('next');
// Next hooks its WebSocket upgrade handler (development reloading and proxied rewrites, neither used
// here) onto the server of the first request it sees, and that handler drops every request asking to
// upgrade. It gets a stand-in, so such requests are answered like any other (server/methods.mjs).
const app = next({ dev: false, dir: root, hostname, port, httpServer: /** @type {any} */ (new EventEmitter()) });
const handle = app.getRequestHandler();
await app.prepare();

// Bodies under 1 KB are not worth compressing; brotli at quality 4 (the package default) is
// close to gzip's speed with smaller output.
const compress = compression({
  threshold: 1024,
  filter(req, res) {
    // Next sets some headers as one-element arrays, which the default filter cannot read.
    const type = res.getHeader('Content-Type');
    if (Array.isArray(type)) res.setHeader('Content-Type', type.join(', '));
    return compression.filter(req, res);
  },
});
const cached = responseCache(handle, { compress });
const server = http.createServer();
// Every request meets the method rules first (server/methods.mjs); the ones a path takes go on
// through the response cache to Next. Refusals reach Next directly, so the cache never holds one.
handleMethods(server, {
  app: handle,
  serve(req, res) {
    // The socket address, for per-client limits; a client cannot set it (any incoming value is replaced).
    req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
    // Counted here, in front of the response cache, so hits that never enter Next count too.
    const started = performance.now();
    res.once('finish', () => {
      const route = routeLabel((req.url ?? '/').split('?')[0]);
      const m = metrics();
      m.requests.inc({ route, status: String(res.statusCode) });
      m.latency.observe({ route }, (performance.now() - started) / 1000);
    });
    cached(req, res);
  },
});
server.keepAliveTimeout = 65_000;
// Every open connection, so a stop can close the ones with no answer under way: server.close() and
// closeIdleConnections() leave open a connection that never sent a request (a browser's preconnect).
/** @type {Set<import('node:net').Socket>} */
const sockets = new Set();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
});
server.listen(port, hostname, () => console.log(`Ready on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`));

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Open price streams end with a last comment (their clients reconnect to a running instance); answers
    // under way get up to 5 s to finish. A connection closes as soon as no answer is under way on it.
    runShutdown();
    const closeUnused = () => {
      for (const socket of sockets) if (!(/** @type {any} */ (socket)._httpMessage)) socket.destroy();
    };
    closeUnused();
    setInterval(closeUnused, 50).unref();
    setTimeout(() => {
      // Said, so an operator knows answers were cut (and a test knows the stop was held).
      console.warn(`[shutdown] grace over after 5 s: ${sockets.size} connection(s) still open were cut`);
      process.exit(0);
    }, 5000).unref();
  });
}
