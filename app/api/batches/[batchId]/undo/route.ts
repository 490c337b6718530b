import { requireOperatorWrite } from '@/lib/auth/current'
import { batchIdParamsSchema, undoBodySchema } from '@/lib/batch/schema'
import { previewUndo, runUndo } from '@/lib/batch/undo'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'

export const dynamic = 'force-dynamic'

/**
 * Takes a kept batch back: `dryRun: true` → what each item would get back and a token; with that
 * token, each block the batch wrote and nobody moved since gets its pre-batch content as a new version.
 */
export const POST = route(batchIdParamsSchema, async (req, { batchId }) => {
  const who = await requireOperatorWrite(req)
  const body = await readJsonBody(req, undoBodySchema)
  const id = batchId.toLowerCase()
  return body.dryRun ? previewUndo(id, body, req.signal) : runUndo(id, body, who.name, req.signal)
})
