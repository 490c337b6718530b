import { blocksQuerySchema, runPathSchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { getRunDetail } from '@/lib/queries/run-detail'
import { runBlocks, runBlockSummaries } from '@/lib/queries/working-memory'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const { content } = parseWith(blocksQuerySchema, searchParamsObject(req), 'query')
  const blocks = content === 'none' ? await runBlockSummaries(run, req.signal) : await runBlocks(run, req.signal)
  // An empty list is only an answer for a run that exists; otherwise 404.
  if (blocks.length === 0) await getRunDetail(run, req.signal)
  return { blocks }
})
