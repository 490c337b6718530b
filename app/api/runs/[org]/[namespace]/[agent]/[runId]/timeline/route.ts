import { isEmptyJsonArray } from '@/lib/clickhouse/json-bytes'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { requireRun } from '@/lib/queries/run-detail'
import { runTimelineJson, timelineDocument } from '@/lib/queries/timeline'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.timeline, async ({ params: run, query }, req) => {
  // Ten thousand events are megabytes: ClickHouse writes their JSON, Node passes it on.
  const timeline = await runTimelineJson(run, query.limit, req.signal)
  // No event is an answer only for a run that exists; otherwise 404.
  if (isEmptyJsonArray(timeline.events)) await requireRun(run, req.signal)
  return timelineDocument(timeline)
})
