import { requireOperatorWrite } from '@/lib/auth/current'
import { previewBatch, runBatch } from '@/lib/batch/batch'
import { batchBodySchema } from '@/lib/batch/schema'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/**
 * Batch clear or restore of one block across the runs a filter matches. `dryRun: true` → the
 * preview and its token; `dryRun: false` with that token → one conflict-checked write per run.
 */
export const POST = route(null, async (req) => {
  const who = await requireOperatorWrite(req)
  const body = await readJsonBody(req, batchBodySchema)
  return body.dryRun ? previewBatch(body, req.signal) : runBatch(body, who.name, req.signal)
})
