/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  experimental: {
    // The stylesheets go into the HTML: a page's rows then show without waiting for a second
    // request to a server that may be busy reading the rest of the page (about 50 KB).
    inlineCss: true,
  },
  poweredByHeader: false,
  // Lets a second build (e.g. a test run beside a running benchmark) use its own folder.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The embedded engine is a native addon: load it from node_modules at run time. The worker pool
  // starts its threads from its own files, by path, so it is loaded from node_modules too.
  serverExternalPackages: ['chdb', '@clickhouse/client', 'tinypool'],
  // A self-contained server in <distDir>/standalone (see "Deploy" in the README). The tracer
  // follows the addon but not the shared library it loads at run time, nor the diff worker the
  // server starts by path (lib/server/diff-pool.ts) with what it imports, so name those here.
  output: 'standalone',
  outputFileTracingIncludes: {
    '/*': [
      './node_modules/@chdb/lib-linux-*/libchdb.so',
      './lib/server/diff-worker.mjs',
      './node_modules/diff/package.json',
      './node_modules/diff/libesm/**',
      './node_modules/tinypool/**',
    ],
  },
  // The Content-Security-Policy is set per request, with a nonce, in proxy.ts.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        ],
      },
    ]
  },
}

export default nextConfig
