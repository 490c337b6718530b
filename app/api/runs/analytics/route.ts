import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runsAnalytics } from '@/lib/queries/analytics'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Summary charts of the runs page, over the same filters as `GET /api/runs` (no paging). */
export const GET = serve(endpoints.analytics, ({ query: filter }, req) =>
  cachedRead('runs.analytics', filter, req.signal, (signal) => runsAnalytics(filter, signal)),
)
