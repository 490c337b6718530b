import 'server-only'
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { getConfig, type ConfiguredUser, type Role } from '../config'

/** On loopback over plain HTTP; elsewhere the cookie is Secure and takes the `__Host-` prefix. */
export const SESSION_COOKIE = 'loom_runs_session'
export const SECURE_SESSION_COOKIE = '__Host-loom_runs_session'
export const SESSION_TTL_MS = 12 * 3600_000

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE
}

type Store = { key?: Buffer; revoked: Map<string, number> }
const g = globalThis as typeof globalThis & { __loomRunsSessions?: Store }

function store(): Store {
  g.__loomRunsSessions ??= { revoked: new Map() }
  return g.__loomRunsSessions
}

/** The signing key: configured, or random per process (sessions then end when the server restarts). */
function key(): Buffer {
  const configured = getConfig().sessionSecret
  if (configured) return Buffer.from(configured, 'utf8')
  const s = store()
  s.key ??= randomBytes(32)
  return s.key
}

function sign(payload: string) {
  return createHmac('sha256', key()).update(payload).digest('base64url')
}

/** Changes whenever the user's password hash changes, so a new password ends old sessions. */
function fingerprint(user: ConfiguredUser): string {
  return createHash('sha256').update(user.secret).digest('base64url').slice(0, 22)
}

export type Session = { id: string; name: string; role: Role; expires: number }

export function createSessionToken(user: ConfiguredUser, now = Date.now()): string {
  const data = { s: randomBytes(16).toString('base64url'), n: user.name, e: now + SESSION_TTL_MS, f: fingerprint(user) }
  const payload = Buffer.from(JSON.stringify(data), 'utf8').toString('base64url')
  return `${payload}.${sign(payload)}`
}

/**
 * The session a cookie value proves, or null: bad signature, expired, logged out, or a user
 * who is no longer configured or whose password changed since the login.
 */
export function readSessionToken(token: string | undefined, now = Date.now()): Session | null {
  if (!token) return null
  const [payload, sig] = token.split('.')
  if (!payload || !sig) return null
  const expected = Buffer.from(sign(payload))
  const given = Buffer.from(sig)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      s?: string
      n?: string
      e?: number
      f?: string
    }
    if (typeof data.e !== 'number' || data.e < now || typeof data.s !== 'string' || !data.s) return null
    if (store().revoked.has(data.s)) return null
    const user = getConfig().users.find((u) => u.name === data.n)
    // The role comes from the configuration, so a demoted user loses rights at once.
    if (!user || data.f !== fingerprint(user)) return null
    return { id: data.s, name: user.name, role: user.role, expires: data.e }
  } catch {
    return null
  }
}

/** Ends a session in this process: its cookie is refused from now on, wherever it is replayed. */
export function revokeSession(session: Pick<Session, 'id' | 'expires'>, now = Date.now()): void {
  const { revoked } = store()
  revoked.set(session.id, session.expires)
  // Revocations matter only until the session would have expired anyway.
  if (revoked.size > 1000) for (const [id, expires] of revoked) if (expires < now) revoked.delete(id)
}
