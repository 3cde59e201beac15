import type { NextConfig } from 'next';

const root = __dirname;

const nextConfig: NextConfig = {
  // A lockfile in a parent folder would otherwise make Next guess the wrong workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
  // prom-client (only /metrics loads it) reads Node's cluster and v8 modules: required at run time, not bundled.
  serverExternalPackages: ['prom-client'],
  // server.mjs compresses every response (brotli or gzip); Next's own gzip would only get in the way.
  compress: false,
  // CI type-checks the whole project (`npm run typecheck`, tests and scripts included) before it builds;
  // it says so with TYPECHECKED=1 so the build does not check the same files again.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED === '1' },
  // Tests build into their own folder so a developer's `.next` is never clobbered.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  async headers() {
    return [
      // Widget scripts carry a content hash in their name: cache them for a year.
      { source: '/w/:file*', headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }] },
      {
        source: '/embed.js',
        headers: [
          { key: 'Cache-Control', value: 'public, max-age=3600' },
          { key: 'Access-Control-Allow-Origin', value: '*' },
        ],
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
