import { analyticsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { runsAnalytics } from '@/lib/queries/analytics'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Summary charts of the runs page, over the same filters as `GET /api/runs` (no paging). */
export const GET = route(null, async (req) => {
  const filter = parseWith(analyticsQuerySchema, searchParamsObject(req), 'query')
  return cachedRead('runs.analytics', filter, req.signal, (signal) => runsAnalytics(filter, signal))
})
