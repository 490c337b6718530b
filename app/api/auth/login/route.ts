import { NextResponse } from 'next/server'
import { getConfig } from '@/lib/config'
import { AppError } from '@/lib/errors'
import { checkCredentials, requestOrigin, sessionCookieFor } from '@/lib/auth/current'
import { createSessionToken, SESSION_TTL_MS } from '@/lib/auth/session'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

export const POST = serve(
  endpoints.login,
  async ({ body: { name, password } }, req) => {
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
  {
    before: () => {
      if (getConfig().users.length === 0)
        throw new AppError('invalid', 'No users are configured: this console needs no login')
    },
  },
)
