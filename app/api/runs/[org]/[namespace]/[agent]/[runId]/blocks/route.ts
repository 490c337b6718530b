import { blocksQuerySchema, runPathSchema } from '@/lib/api/schemas'
import { isEmptyJsonArray, JsonText } from '@/lib/clickhouse/json-bytes'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { requireRun } from '@/lib/queries/run-detail'
import { runBlocksJson } from '@/lib/queries/working-memory'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const { content } = parseWith(blocksQuerySchema, searchParamsObject(req), 'query')
  // Every block of a huge run is megabytes: ClickHouse writes the JSON, Node passes it on.
  const blocks = await runBlocksJson(run, { content: content !== 'none' }, req.signal)
  // An empty list is only an answer for a run that exists; otherwise 404.
  if (isEmptyJsonArray(blocks)) await requireRun(run, req.signal)
  return new JsonText('{"blocks":', blocks, '}')
})
