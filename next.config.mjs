/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Lets a second build (e.g. a test run beside a running benchmark) use its own folder.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The embedded engine is a native addon: load it from node_modules at run time.
  serverExternalPackages: ['chdb', '@clickhouse/client'],
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
