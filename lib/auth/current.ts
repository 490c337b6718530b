import type { NextRequest } from 'next/server'
import { getConfig, type Role } from '../config'
import { AppError } from '../errors'
import { verifyPassword } from './passwords'
import { readSessionToken, SESSION_COOKIE } from './session'

export type Principal = { name: string; role: Role }

/** Who is asking: `local` operator when no users are configured; else the session or HTTP Basic user. */
export function principalOf(req: NextRequest): Principal | null {
  const { users } = getConfig()
  if (users.length === 0) return { name: 'local', role: 'operator' }
  const session = readSessionToken(req.cookies.get(SESSION_COOKIE)?.value)
  if (session) return { name: session.name, role: session.role }
  const auth = req.headers.get('authorization')
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8')
    const i = decoded.indexOf(':')
    if (i > 0) {
      const user = users.find((u) => u.name === decoded.slice(0, i))
      if (user && verifyPassword(decoded.slice(i + 1), user.secret)) return { name: user.name, role: user.role }
    }
  }
  return null
}

export function requireViewer(req: NextRequest): Principal {
  const p = principalOf(req)
  if (!p) throw new AppError('unauthorized', 'Log in first: this console has users configured')
  return p
}

/** Mutations: same-origin only, not in read-only mode, and only for operators. */
export function requireOperatorWrite(req: NextRequest): Principal {
  const origin = req.headers.get('origin')
  const site = req.headers.get('sec-fetch-site')
  if (origin !== null && origin !== req.nextUrl.origin && origin !== `${req.nextUrl.protocol}//${req.headers.get('host')}`) {
    throw new AppError('forbidden', 'Cross-origin write refused')
  }
  if (site === 'cross-site') throw new AppError('forbidden', 'Cross-origin write refused')
  if (getConfig().readOnly) throw new AppError('forbidden', 'This console is read-only (LOOM_RUNS_READ_ONLY=1): no writes of any kind')
  const p = requireViewer(req)
  if (p.role !== 'operator') throw new AppError('forbidden', `User ${p.name} is a viewer; editing needs the operator role`)
  return p
}
