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
  // The embedded engine is a native addon: load it from node_modules at run time.
  serverExternalPackages: ['chdb', '@clickhouse/client'],
  // A self-contained server in <distDir>/standalone (see "Deploy" in the README). The tracer
  // follows the addon but not the shared library it loads at run time, so name that here.
  output: 'standalone',
  outputFileTracingIncludes: {
    '/*': ['./node_modules/@chdb/lib-linux-*/libchdb.so'],
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
