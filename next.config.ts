import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { NextConfig } from 'next';

const root = __dirname;

/**
 * This build of the pages, from the content of everything that renders them (code, bundled data, the browser
 * scripts' manifest, the framework's version): part of a site page's ETag, so a page whose data stands keeps its
 * validators from instance to instance, and a new build with other pages does not answer 304 for the old ones.
 */
function siteBuild(): string {
  const hash = createHash('sha1');
  const add = (file: string) => hash.update(path.relative(root, file)).update(fs.readFileSync(file));
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) add(file);
    }
  };
  for (const dir of ['pages', 'site', 'widgets', 'lib']) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  for (const file of ['package-lock.json', 'next.config.ts']) if (fs.existsSync(path.join(root, file))) add(path.join(root, file));
  return hash.digest('base64url').slice(0, 16);
}

const nextConfig: NextConfig = {
  // A lockfile in a parent folder would otherwise make Next guess the wrong workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
  // Required at run time, not bundled: prom-client (only /metrics loads it) reads Node's cluster and v8 modules;
  // node-redis (loaded only with REDIS_URL set) is one connection for the whole process, and large.
  serverExternalPackages: ['prom-client', '@redis/client'],
  // Site pages set their own validators, from the data they show and this build (site/cacheable.ts); the
  // framework's would hash each rendered page, and say nothing of Last-Modified.
  generateEtags: false,
  env: { SITE_BUILD: siteBuild() },
  // server.mjs compresses every response (brotli or gzip); Next's own gzip would only get in the way.
  compress: false,
  // CI type-checks the whole project (`npm run typecheck`, tests and scripts included) before it builds;
  // it says so with TYPECHECKED=1 so the build does not check the same files again.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED === '1' },
  // Tests build into their own folder so a developer's `.next` is never clobbered.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Each route's code loads on its first request, not all at start: an instance holds about 64 MiB less and a start
  // costs about 0.6 s less CPU, for 60–130 ms more on a route's first answer (BENCHMARKS §19).
  experimental: { preloadEntriesOnStart: false },
  async headers() {
    return [
      // Widget scripts carry a content hash in their name: cache them for a year. Open to every origin: a widget in
      // `<iframe sandbox="allow-scripts">` has an opaque origin, and loads its module script in CORS mode (decisions §29).
      {
        source: '/w/:file*',
        headers: [
          { key: 'Cache-Control', value: 'public, max-age=31536000, immutable' },
          { key: 'Access-Control-Allow-Origin', value: '*' },
        ],
      },
      {
        source: '/embed.js',
        headers: [
          { key: 'Cache-Control', value: 'public, max-age=3600' },
          { key: 'Access-Control-Allow-Origin', value: '*' },
        ],
      },
      // The service worker (site/scripts/sw.ts): checked anew on each visit, so a new build's reaches readers at once.
      {
        source: '/sw.js',
        headers: [{ key: 'Cache-Control', value: 'no-cache' }],
      },
      // Widget pages may be framed by anyone (they set their own policy); nothing else may be.
      {
        source: '/((?!widgets/|w/|embed\\.js).*)',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
    ];
  },
};

export default nextConfig;
