import { NextResponse } from 'next/server'
import { loginBodySchema } from '@/lib/api/schemas'
import { getConfig } from '@/lib/config'
import { AppError } from '@/lib/errors'
import { checkCredentials, requestOrigin, requireSameOrigin, sessionCookieFor } from '@/lib/auth/current'
import { createSessionToken, SESSION_TTL_MS } from '@/lib/auth/session'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

export const POST = route(
  null,
  async (req) => {
    requireSameOrigin(req)
    if (getConfig().users.length === 0)
      throw new AppError('invalid', 'No users are configured: this console needs no login')
    const { name, password } = await readJsonBody(req, loginBodySchema)
    const origin = requestOrigin(req)
    const user = await checkCredentials(name, password, origin.client)
    const cookie = sessionCookieFor(origin)
    const res = NextResponse.json({ user: { name: user.name, role: user.role } })
    res.cookies.set(cookie.name, createSessionToken(user), {
      httpOnly: true,
      sameSite: 'strict',
      secure: cookie.secure,
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    })
    return res
  },
  { public: true },
)
