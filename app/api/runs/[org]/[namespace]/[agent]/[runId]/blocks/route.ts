import { blocksQuerySchema, runPathSchema } from '@/lib/api/schemas'
import { JsonText } from '@/lib/clickhouse/query'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { getRunDetail } from '@/lib/queries/run-detail'
import { runBlocksJsonText, runBlockSummaries } from '@/lib/queries/working-memory'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const { content } = parseWith(blocksQuerySchema, searchParamsObject(req), 'query')
  if (content === 'none') {
    const blocks = await runBlockSummaries(run, req.signal)
    // An empty list is only an answer for a run that exists; otherwise 404.
    if (blocks.length === 0) await getRunDetail(run, req.signal)
    return { blocks }
  }
  // Every block with its content can be megabytes: ClickHouse writes the JSON, Node passes it on.
  const blocks = await runBlocksJsonText(run, req.signal)
  if (/^\[\s*\]$/.test(blocks)) await getRunDetail(run, req.signal)
  return new JsonText(`{"blocks":${blocks}}`)
})
