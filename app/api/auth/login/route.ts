import { NextResponse } from 'next/server'
import { z } from 'zod'
import { getConfig } from '@/lib/config'
import { AppError } from '@/lib/errors'
import { verifyPassword } from '@/lib/auth/passwords'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { createSessionToken, SESSION_COOKIE, SESSION_TTL_MS } from '@/lib/auth/session'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

const loginSchema = z.strictObject({
  name: z.string({ message: 'name is required' }).min(1, 'name is required').max(64, 'name is too long'),
  password: z.string({ message: 'password is required' }).min(1, 'password is required').max(1024, 'password is too long'),
})

export const POST = route(
  null,
  async (req) => {
    const { users } = getConfig()
    if (users.length === 0) throw new AppError('invalid', 'No users are configured: this console needs no login')
    const client = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'local'
    const wait = takeAttempt(client)
    if (wait > 0) {
      return NextResponse.json(
        { error: { code: 'rate_limited', message: `Too many login attempts; try again in ${wait} s` } },
        { status: 429, headers: { 'retry-after': String(wait) } },
      )
    }
    const { name, password } = await readJsonBody(req, loginSchema)
    const user = users.find((u) => u.name === name)
    // Verify against a dummy hash for unknown names so timing does not reveal which names exist.
    const ok = verifyPassword(password, user?.secret ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')
    if (!user || !ok) throw new AppError('unauthorized', 'Wrong name or password')
    const res = NextResponse.json({ user: { name: user.name, role: user.role } })
    res.cookies.set(SESSION_COOKIE, createSessionToken(user.name, user.role), {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.nextUrl.protocol === 'https:',
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    })
    return res
  },
  { public: true },
)
