import { runPathSchema, timelineQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { forExistingRun } from '@/lib/queries/run-scoped'
import { runTimeline } from '@/lib/queries/timeline'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const { limit } = parseWith(timelineQuerySchema, searchParamsObject(req), 'query')
  return forExistingRun(run, req.signal, () => runTimeline(run, limit, req.signal), (t) => t.events.length === 0)
})
