import { previewBatch, runBatch } from '@/lib/batch/batch'
import { listBatches } from '@/lib/batch/store'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

/**
 * Batch clear or restore of one block across the runs a filter matches. `dryRun: true` → the
 * preview and its token; `dryRun: false` with that token → one conflict-checked write per run.
 */
export const POST = serve(endpoints.batch, ({ body, who }, req) =>
  body.dryRun ? previewBatch(body, req.signal) : runBatch(body, who.name, req.signal),
)

/** Recent batches (and undos), newest first, each with its counts and what undid it. */
export const GET = serve(endpoints.batches, async ({ query }, req) => ({
  batches: await listBatches(query.limit ?? 20, req.signal),
}))
