import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runCohorts } from '@/lib/queries/cohorts'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Troubled runs (any problem flag) under the list's filters, grouped by agent, status and flags; largest first. */
export const GET = serve(endpoints.cohorts, ({ query: { limit, ...filter } }, req) =>
  cachedRead('runs.cohorts', { filter, limit }, req.signal, (signal) => runCohorts(filter, signal, limit)),
)
