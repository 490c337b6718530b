import { NextResponse, type NextRequest } from 'next/server'
import { principalOf } from './lib/auth/current'

/**
 * Pages need a login when users are configured. API routes check the session
 * themselves (and answer 401 JSON), so they pass through here.
 */
export function proxy(req: NextRequest) {
  if (principalOf(req)) return NextResponse.next()
  const url = req.nextUrl.clone()
  url.pathname = '/login'
  url.search = ''
  url.searchParams.set('next', `${req.nextUrl.pathname}${req.nextUrl.search}`)
  return NextResponse.redirect(url)
}

export const config = {
  matcher: ['/((?!api/|_next/|login|favicon\\.ico).*)'],
}
