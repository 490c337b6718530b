import { NextResponse } from 'next/server'
import { principalOf, requestOrigin, requireSameOrigin, sessionCookieFor } from '@/lib/auth/current'
import { revokeSession } from '@/lib/auth/session'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/** Ends the session on the server (its cookie is refused afterwards, wherever it was copied) and clears it. */
export const POST = route(
  null,
  async (req) => {
    requireSameOrigin(req)
    const p = await principalOf(req)
    if (p?.session) revokeSession(p.session)
    const cookie = sessionCookieFor(requestOrigin(req))
    const res = NextResponse.json({ ok: true, endedSession: !!p?.session })
    res.cookies.set(cookie.name, '', { httpOnly: true, sameSite: 'strict', secure: cookie.secure, path: '/', maxAge: 0 })
    return res
  },
  { public: true },
)
