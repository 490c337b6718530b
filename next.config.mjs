/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The embedded engine is a native addon: load it from node_modules at run time.
  serverExternalPackages: ['chdb', '@clickhouse/client'],
  typedRoutes: false,
}

export default nextConfig
