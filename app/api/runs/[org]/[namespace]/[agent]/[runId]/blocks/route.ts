import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { getRunDetail } from '@/lib/queries/run-detail'
import { runBlocks } from '@/lib/queries/working-memory'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const blocks = await runBlocks(run, req.signal)
  // An empty list is only an answer for a run that exists; otherwise 404.
  if (blocks.length === 0) await getRunDetail(run, req.signal)
  return { blocks }
})
