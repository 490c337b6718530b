import { previewUndo, runUndo } from '@/lib/batch/undo'
import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'

export const dynamic = 'force-dynamic'

/**
 * Takes a kept batch back: `dryRun: true` → what each item would get back and a token; with that
 * token, each block the batch wrote and nobody moved since gets its pre-batch content as a new version.
 */
export const POST = serve(endpoints.undoBatch, ({ params, body, who }, req) => {
  const id = params.batchId.toLowerCase()
  return body.dryRun ? previewUndo(id, body, req.signal) : runUndo(id, body, who.name, req.signal)
})
