import type { NextConfig } from 'next';

const root = __dirname;

const nextConfig: NextConfig = {
  // A lockfile in a parent folder would otherwise make Next guess the wrong workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
  // server.mjs compresses every response (brotli or gzip); Next's own gzip would only get in the way.
  compress: false,
  // Tests build into their own folder so a developer's `.next` is never clobbered.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  serverExternalPackages: ['better-sqlite3'],
};

export default nextConfig;
