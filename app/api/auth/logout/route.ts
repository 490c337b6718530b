import { NextResponse } from 'next/server'
import { principalOf, requestOrigin, sessionCookieFor } from '@/lib/auth/current'
import { storeRevocation } from '@/lib/auth/revocations'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

/** Ends the session on the server (its cookie is refused afterwards, wherever it was copied) and clears it. */
export const POST = serve(endpoints.logout, async (_, req) => {
  const p = await principalOf(req)
  const ended = p?.session ? await storeRevocation(p.session) : null
  const cookie = sessionCookieFor(requestOrigin(req))
  // `remembered`: 'stored' survives restarts and is seen by every console process; 'process-only' does not.
  const res = NextResponse.json({ ok: true, endedSession: ended !== null, remembered: ended })
  res.cookies.set(cookie.name, '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: cookie.secure,
    path: '/',
    maxAge: 0,
  })
  return res
})
