import 'server-only'
import { createHash } from 'node:crypto'
import type { NextRequest } from 'next/server'
import { getConfig, type ConfiguredUser, type Role } from '../config'
import { AppError } from '../errors'
import {
  allowedHosts,
  clientAddress,
  isHostAllowed,
  isLoopbackAddress,
  isLoopbackHost,
  isOriginAllowed,
  isOwnOrigin,
  isSecureRequest,
} from '../net/network'
import { readPeer } from '../net/peer'
import { dummyHash, verifyPassword } from './passwords'
import { limiters } from './rate-limit'
import { revocationsReady } from './revocations'
import { readSessionToken, sessionCookieName, type Session } from './session'

export type Principal = { name: string; role: Role; session?: Session }

/** What the console knows about where a request came from, from the socket and trusted proxies only. */
export type RequestOrigin = {
  /** The client's address (null when the request did not pass the request gate). */
  client: string | null
  /** Over TLS (directly, or as a trusted proxy says). */
  secure: boolean
  /** The Host names the console by a loopback name (then the session cookie may be plain). */
  loopbackHost: boolean
  /** The Host header is one the console answers to. */
  hostAllowed: boolean
  allowed: Set<string>
}

export function requestOrigin(req: NextRequest): RequestOrigin {
  const config = getConfig()
  const peer = readPeer(req.headers)
  const allowed = allowedHosts(peer?.localPort || config.port, config.allowedHosts)
  const host = req.headers.get('host')
  return {
    client: peer ? clientAddress(peer.address, req.headers.get('x-forwarded-for'), config.trustedProxies) : null,
    secure: isSecureRequest(peer?.encrypted ?? false, req.headers.get('x-forwarded-proto'), config.trustedProxies),
    loopbackHost: isLoopbackHost(host),
    hostAllowed: isHostAllowed(host, allowed),
    allowed,
  }
}

/** The session cookie's name for this request: `__Host-` and Secure unless on loopback over HTTP. */
export function sessionCookieFor(o: RequestOrigin): { name: string; secure: boolean } {
  const secure = o.secure || !o.loopbackHost
  return { name: sessionCookieName(secure), secure }
}

const BASIC_CACHE_MS = 60_000
const g = globalThis as typeof globalThis & { __loomRunsBasicCache?: Map<string, { secret: string; until: number }> }

function rateLimited(wait: number): AppError {
  return new AppError('rate_limited', `Too many failed attempts; try again in ${wait} s`, {
    details: { retryAfter: wait },
  })
}

/**
 * Checks a name and password, counting failures per client and per user name. Unknown names
 * are checked against a dummy hash so timing does not tell which names exist.
 */
export async function checkCredentials(name: string, password: string, client: string | null): Promise<ConfiguredUser> {
  const { clients, users } = limiters()
  const clientKey = client ?? 'unknown'
  const wait = clients.retryAfter(clientKey)
  // Refused before the password check: no entry is created for it.
  if (wait > 0) throw rateLimited(wait)
  // A name under a wide attack (failures from many clients) is slowed, never locked.
  const slow = users.slowdownMs(name)
  if (slow > 0) await new Promise((resolve) => setTimeout(resolve, slow))
  const user = getConfig().users.find((u) => u.name === name)
  const ok = await verifyPassword(password, user?.secret ?? (await dummyHash()))
  if (!user || !ok) {
    clients.fail(clientKey)
    users.fail(name, clientKey)
    throw new AppError('unauthorized', 'Wrong name or password')
  }
  return user
}

/** HTTP Basic for scripts: verified credentials are remembered briefly so each request does not pay for scrypt. */
async function basicPrincipal(header: string, client: string | null): Promise<Principal> {
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const i = decoded.indexOf(':')
  if (i <= 0) throw new AppError('unauthorized', 'Malformed Basic credentials')
  const name = decoded.slice(0, i)
  const password = decoded.slice(i + 1)
  const cache = (g.__loomRunsBasicCache ??= new Map())
  const cacheKey = createHash('sha256').update(`${name}\u0000${password}`).digest('base64url')
  const now = Date.now()
  const hit = cache.get(cacheKey)
  const configured = getConfig().users.find((u) => u.name === name)
  if (hit && hit.until > now && configured && configured.secret === hit.secret)
    return { name: configured.name, role: configured.role }
  const user = await checkCredentials(name, password, client)
  cache.delete(cacheKey)
  cache.set(cacheKey, { secret: user.secret, until: now + BASIC_CACHE_MS })
  if (cache.size > 1000) cache.delete(cache.keys().next().value as string)
  return { name: user.name, role: user.role }
}

/**
 * Who is asking. With no users configured: the operator `local`, for loopback clients only.
 * Otherwise the session cookie's user, or HTTP Basic credentials (failures count against the
 * rate limits; over them this throws 429).
 */
export async function principalOf(req: NextRequest): Promise<Principal | null> {
  const config = getConfig()
  const o = requestOrigin(req)
  if (config.users.length === 0) return isLoopbackAddress(o.client) ? { name: 'local', role: 'operator' } : null
  const session = readSessionToken(req.cookies.get(sessionCookieFor(o).name)?.value)
  if (session) {
    // A logout stored before a restart must refuse the cookie from the first request on.
    if (!(await revocationsReady()))
      throw new AppError(
        'unavailable',
        'Sessions cannot be checked yet: the stored logouts could not be read from ClickHouse. Try again in a moment.',
      )
    if (!readSessionToken(req.cookies.get(sessionCookieFor(o).name)?.value)) return null
    return { name: session.name, role: session.role, session }
  }
  const auth = req.headers.get('authorization')
  if (auth?.startsWith('Basic ')) return basicPrincipal(auth, o.client)
  return null
}

export async function requireViewer(req: NextRequest): Promise<Principal> {
  const p = await principalOf(req)
  if (p) return p
  if (getConfig().users.length === 0)
    throw new AppError('forbidden', 'This console has no users configured and serves loopback clients only')
  throw new AppError('unauthorized', 'Log in first: this console has users configured')
}

/** Refuses a mutation sent from a page of another origin (CSRF, DNS rebinding). */
export function requireSameOrigin(req: NextRequest): void {
  const o = requestOrigin(req)
  const origin = req.headers.get('origin')
  if (!o.hostAllowed) throw new AppError('misdirected', 'This console does not answer to that host name')
  if (
    origin !== null &&
    (!isOriginAllowed(origin, o.allowed) || !isOwnOrigin(origin, req.headers.get('host'), o.secure))
  ) {
    throw new AppError(
      'forbidden',
      "Cross-origin write refused: the Origin must be this console's own scheme, host and port",
    )
  }
  if (req.headers.get('sec-fetch-site') === 'cross-site') throw new AppError('forbidden', 'Cross-origin write refused')
}

/** Mutations: same-origin only, not in read-only mode, and only for operators. */
export async function requireOperatorWrite(req: NextRequest): Promise<Principal> {
  requireSameOrigin(req)
  if (getConfig().readOnly)
    throw new AppError('forbidden', 'This console is read-only (LOOM_RUNS_READ_ONLY=1): no writes of any kind')
  const p = await requireViewer(req)
  if (p.role !== 'operator')
    throw new AppError('forbidden', `User ${p.name} is a viewer; editing needs the operator role`)
  return p
}

/**
 * A write to the console's own data that any signed-in user may make (a private saved view): same
 * origin, not in read-only mode, and signed in; the action checks the role where it matters.
 */
export async function requireSignedInWrite(req: NextRequest): Promise<Principal> {
  requireSameOrigin(req)
  if (getConfig().readOnly)
    throw new AppError('forbidden', 'This console is read-only (LOOM_RUNS_READ_ONLY=1): no writes of any kind')
  return requireViewer(req)
}
