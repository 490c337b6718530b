import { runPathSchema, timelineQuerySchema } from '@/lib/api/schemas'
import { isEmptyJsonArray } from '@/lib/clickhouse/json-bytes'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { requireRun } from '@/lib/queries/run-detail'
import { runTimelineJson, timelineDocument } from '@/lib/queries/timeline'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const { limit } = parseWith(timelineQuerySchema, searchParamsObject(req), 'query')
  // Ten thousand events are megabytes: ClickHouse writes their JSON, Node passes it on.
  const timeline = await runTimelineJson(run, limit, req.signal)
  // No event is an answer only for a run that exists; otherwise 404.
  if (isEmptyJsonArray(timeline.events)) await requireRun(run, req.signal)
  return timelineDocument(timeline)
})
