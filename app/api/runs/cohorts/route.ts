import { cohortsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { runCohorts } from '@/lib/queries/cohorts'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Troubled runs (any problem flag) under the list's filters, grouped by agent, status and flags; largest first. */
export const GET = route(null, async (req) => {
  const { limit, ...filter } = parseWith(cohortsQuerySchema, searchParamsObject(req), 'query')
  return cachedRead('runs.cohorts', { filter, limit }, req.signal, (signal) => runCohorts(filter, signal, limit))
})
