import { requestOrigin } from '@/lib/auth/current'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { incidentMarkdown } from '@/lib/queries/incident'

export const dynamic = 'force-dynamic'

/**
 * The run's incident summary as markdown, ready to paste into a ticket. Links back use the host
 * this request came to: the route answers only the console's own host names, so it is one of them.
 */
export const GET = serve(endpoints.incident, async ({ params: run }, req) => {
  const scheme = requestOrigin(req).secure ? 'https' : 'http'
  const base = `${scheme}://${req.headers.get('host') ?? 'localhost'}`
  const text = await incidentMarkdown(run, base, req.signal)
  return new Response(text, { headers: { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'no-store' } })
})
