import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { getConfig, type Role } from '../config'

export const SESSION_COOKIE = 'loom_runs_session'
export const SESSION_TTL_MS = 12 * 3600_000

const g = globalThis as typeof globalThis & { __loomRunsSessionKey?: Buffer }

/** The signing key: configured, or random per process (sessions then end when the server restarts). */
function key(): Buffer {
  const configured = getConfig().sessionSecret
  if (configured) return Buffer.from(configured, 'utf8')
  g.__loomRunsSessionKey ??= randomBytes(32)
  return g.__loomRunsSessionKey
}

function sign(payload: string) {
  return createHmac('sha256', key()).update(payload).digest('base64url')
}

export type Session = { name: string; role: Role; expires: number }

export function createSessionToken(name: string, role: Role, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ n: name, r: role, e: now + SESSION_TTL_MS }), 'utf8').toString('base64url')
  return `${payload}.${sign(payload)}`
}

/** The session a cookie value proves, or null (bad signature, expired, or a user no longer configured). */
export function readSessionToken(token: string | undefined, now = Date.now()): Session | null {
  if (!token) return null
  const [payload, sig] = token.split('.')
  if (!payload || !sig) return null
  const expected = Buffer.from(sign(payload))
  const given = Buffer.from(sig)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { n: string; r: Role; e: number }
    if (typeof data.e !== 'number' || data.e < now) return null
    const user = getConfig().users.find((u) => u.name === data.n)
    // The role comes from the configuration, so a demoted user loses rights at once.
    if (!user) return null
    return { name: user.name, role: user.role, expires: data.e }
  } catch {
    return null
  }
}
