import { randomBytes } from 'node:crypto'
import { NextResponse, type NextRequest } from 'next/server'
import { principalOf, requestOrigin } from './lib/auth/current'
import { contentSecurityPolicy, HSTS } from './lib/server/csp'

/** Where a page request goes when it needs a login. */
function toLogin(req: NextRequest) {
  const url = req.nextUrl.clone()
  url.pathname = '/login'
  url.search = ''
  url.searchParams.set('next', `${req.nextUrl.pathname}${req.nextUrl.search}`)
  return NextResponse.redirect(url)
}

/**
 * Runs before every page and route: refuses host names the console does not answer to,
 * sends pages to the login when users are configured (API routes answer 401 JSON themselves),
 * and sets a Content-Security-Policy with a fresh nonce that Next puts on its scripts.
 */
export async function proxy(req: NextRequest) {
  const origin = requestOrigin(req)
  if (!origin.hostAllowed) {
    return NextResponse.json(
      { error: { code: 'misdirected', message: 'This console does not answer to that host name' } },
      { status: 421 },
    )
  }
  const path = req.nextUrl.pathname
  const isPage = !path.startsWith('/api/') && path !== '/login'
  if (isPage) {
    const who = await principalOf(req).catch(() => null)
    if (!who) return toLogin(req)
  }
  const nonce = randomBytes(16).toString('base64')
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development')
  const headers = new Headers(req.headers)
  headers.set('x-nonce', nonce)
  headers.set('content-security-policy', csp)
  const res = NextResponse.next({ request: { headers } })
  res.headers.set('content-security-policy', csp)
  if (origin.secure) res.headers.set('strict-transport-security', HSTS)
  return res
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon\\.ico).*)'],
}
