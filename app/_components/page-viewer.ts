import 'server-only'
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import type { Principal } from '@/lib/auth/current'
import { viewerOfHeaders } from '@/lib/auth/page-viewer'

/**
 * The viewer of the page being rendered, checked where pages read data: a page reads nothing for
 * a request that names no viewer, whatever the proxy in front did (a matcher that missed a path,
 * a proxy bypassed); such a request goes to the login. Checked once per request.
 */
export const requirePageViewer = cache(async (): Promise<Principal> => {
  const viewer = await viewerOfHeaders(await headers())
  if (!viewer) redirect('/login')
  return viewer
})
