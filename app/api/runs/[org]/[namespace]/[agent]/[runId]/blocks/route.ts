import { isEmptyJsonArray, JsonText } from '@/lib/clickhouse/json-bytes'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { requireRun } from '@/lib/queries/run-detail'
import { runBlocksJson } from '@/lib/queries/working-memory'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.blocks, async ({ params: run, query }, req) => {
  // Every block of a huge run is megabytes: ClickHouse writes the JSON, Node passes it on.
  const blocks = await runBlocksJson(run, { content: query.content !== 'none' }, req.signal)
  // An empty list is only an answer for a run that exists; otherwise 404.
  if (isEmptyJsonArray(blocks)) await requireRun(run, req.signal)
  return new JsonText('{"blocks":', blocks, '}')
})
