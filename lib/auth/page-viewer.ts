import 'server-only'
import { NextRequest } from 'next/server'
import { principalOf, type Principal } from './current'

/**
 * Who a page request's headers (session cookie, Basic credentials, the gate's peer stamp) name, or
 * null: the API's decision, for a page being rendered on the server.
 */
export async function viewerOfHeaders(h: Headers): Promise<Principal | null> {
  return principalOf(new NextRequest('http://page.invalid/', { headers: h })).catch(() => null)
}
