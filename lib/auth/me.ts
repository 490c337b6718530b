import 'server-only'
import { NextRequest } from 'next/server'
import { getConfig } from '../config'
import { principalOf } from './current'
import type { Me } from '../endpoints/console'

/** Who the browser is, and what the console lets them do (the UI hides what they cannot). */
export type { Me } from '../endpoints/console'

export async function meOf(req: NextRequest): Promise<Me> {
  const config = getConfig()
  const p = await principalOf(req)
  return {
    user: p ? { name: p.name, role: p.role } : null,
    authRequired: config.users.length > 0,
    canWrite: !!p && p.role === 'operator' && !config.readOnly,
    readOnly: config.readOnly,
  }
}

/**
 * The same answer for a page being rendered on the server, from the request's headers (cookie,
 * Host and the gate's peer stamp). Pages render their write controls from it, so the HTML and
 * the first client render agree and the client does not ask again before it can act.
 */
export function meOfHeaders(headers: Headers): Promise<Me> {
  return meOf(new NextRequest('http://page.invalid/', { headers }))
}
