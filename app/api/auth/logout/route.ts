import { NextResponse } from 'next/server'
import { SESSION_COOKIE } from '@/lib/auth/session'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

export const POST = route(
  null,
  async () => {
    const res = NextResponse.json({ ok: true })
    res.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 })
    return res
  },
  { public: true },
)
