import { requireOperatorWrite } from '@/lib/auth/current'
import { previewBatch, runBatch } from '@/lib/batch/batch'
import { batchBodySchema, batchesQuerySchema } from '@/lib/batch/schema'
import { listBatches } from '@/lib/batch/store'
import { readJsonBody } from '@/lib/http/body'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'

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

/** Recent batches (and undos), newest first, each with its counts and what undid it. */
export const GET = route(null, async (req) => {
  const { limit } = parseWith(batchesQuerySchema, searchParamsObject(req, []), 'query')
  return { batches: await listBatches(limit ?? 20, req.signal) }
})
