/**
 * The Content-Security-Policy of every answer. Scripts run only with this request's nonce
 * (Next's own inline scripts and the theme bootstrap carry it) or when loaded by such a script
 * ('strict-dynamic'); nothing is loaded from another origin. Inline styles stay allowed:
 * recharts and mermaid write style attributes.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Sent only on answers that came over TLS: browsers then refuse plain HTTP to this host for a year. */
export const HSTS = 'max-age=31536000'
