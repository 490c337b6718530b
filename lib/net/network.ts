/**
 * Pure decisions about who is asking and under which name: loopback clients, allowed
 * Host headers, and the client address behind trusted proxies. Nothing here reads the
 * environment or a socket; the request gate and the auth layer feed it what they know.
 */
import net from 'node:net'

/** The names a loopback console answers to (with its port). */
export const LOOPBACK_HOST_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms; false for anything else or nothing. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false
  let a = address.trim().toLowerCase()
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1)
  const zone = a.indexOf('%')
  if (zone >= 0) a = a.slice(0, zone)
  if (a.startsWith('::ffff:')) {
    const v4 = a.slice(7)
    if (net.isIPv4(v4)) a = v4
  }
  if (net.isIPv4(a)) return a.startsWith('127.')
  if (net.isIPv6(a)) return a === '::1' || a === '0:0:0:0:0:0:0:1'
  return false
}

/**
 * A Host header value reduced to `name[:port]`, lower-case, with the default port of the
 * scheme dropped; null when it is not a plausible host (so it matches nothing).
 */
export function normalizeHost(value: string | null | undefined, defaultPort = 80): string | null {
  if (!value) return null
  const v = value.trim().toLowerCase()
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(v)
  if (!m) return null
  const name = m[1].replace(/\.$/, '')
  if (!name) return null
  const port = m[2] === undefined ? undefined : Number(m[2])
  if (port !== undefined && (port < 1 || port > 65535)) return null
  return port === undefined || port === defaultPort ? name : `${name}:${port}`
}

/** Every Host the console answers to: its loopback names on its port, plus the configured ones. */
export function allowedHosts(port: number, configured: readonly string[] = []): Set<string> {
  const out = new Set<string>()
  for (const name of LOOPBACK_HOST_NAMES) {
    const h = normalizeHost(`${name}:${port}`)
    if (h) out.add(h)
  }
  for (const entry of configured) {
    const h = normalizeHost(entry)
    if (h) out.add(h)
  }
  return out
}

export function isHostAllowed(hostHeader: string | null | undefined, allowed: ReadonlySet<string>): boolean {
  const h = normalizeHost(hostHeader)
  // Behind a TLS proxy the browser's Host may carry :443; treat it as the bare name too.
  return h !== null && (allowed.has(h) || (h.endsWith(':443') && allowed.has(h.slice(0, -4))))
}

/** True when the Host header names the console by a loopback name. */
export function isLoopbackHost(hostHeader: string | null | undefined): boolean {
  const h = normalizeHost(hostHeader)
  if (!h) return false
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]
  return name === 'localhost' || isLoopbackAddress(name)
}

/** The origin part of an `Origin` header (`http://host:port`) checked against the allowed hosts. */
export function isOriginAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  let u: URL
  try {
    u = new URL(origin)
  } catch {
    return false
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false
  if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '')) return false
  const h = normalizeHost(u.host, u.protocol === 'https:' ? 443 : 80)
  return h !== null && allowed.has(h)
}

/**
 * True when an `Origin` is the console's own as this request reached it: the same scheme (https
 * only over TLS, directly or as a trusted proxy says), host and port as the request's Host. An
 * allowed host under the other scheme is another origin (a page there is not this console's).
 */
export function isOwnOrigin(origin: string, hostHeader: string | null | undefined, secure: boolean): boolean {
  let u: URL
  try {
    u = new URL(origin)
  } catch {
    return false
  }
  if (u.protocol !== (secure ? 'https:' : 'http:')) return false
  const port = secure ? 443 : 80
  const own = normalizeHost(hostHeader, port)
  return own !== null && normalizeHost(u.host, port) === own
}

/**
 * The client's address: the socket's peer when no proxy is trusted, else the
 * `X-Forwarded-For` entry that many hops from the right (each trusted proxy appends the
 * address it received the request from). Entries the client wrote further left are ignored.
 */
export function clientAddress(peer: string | null, forwardedFor: string | null, trustedProxies: number): string | null {
  if (trustedProxies <= 0 || !peer) return peer
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    peer,
  ]
  const i = chain.length - 1 - trustedProxies
  return chain[Math.max(0, i)] ?? null
}

/** Whether the request came over TLS, as far as the socket or a trusted proxy can tell. */
export function isSecureRequest(
  socketEncrypted: boolean,
  forwardedProto: string | null,
  trustedProxies: number,
): boolean {
  if (socketEncrypted) return true
  if (trustedProxies <= 0 || !forwardedProto) return false
  const hops = forwardedProto.split(',').map((s) => s.trim().toLowerCase())
  // The proxy nearest the console writes the right-most value.
  return hops[hops.length - 1] === 'https'
}
