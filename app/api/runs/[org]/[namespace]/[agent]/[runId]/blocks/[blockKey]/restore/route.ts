import { blockPathSchema, blockSelectorSchema, restoreBodySchema } from '@/lib/api/schemas'
import { requireOperatorWrite } from '@/lib/auth/current'
import { readJsonBody } from '@/lib/http/body'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { restoreBlock } from '@/lib/operator/writes'

export const dynamic = 'force-dynamic'

/** Restore: `{version, expectedVersion, reason, force?}` → the new version with that version's content. */
export const POST = route(blockPathSchema, async (req, path) => {
  const who = await requireOperatorWrite(req)
  const { userId, sessionId } = parseWith(blockSelectorSchema, searchParamsObject(req), 'query')
  const body = await readJsonBody(req, restoreBodySchema)
  return restoreBlock({ ref: { ...path, userId, sessionId }, operator: who.name, ...body })
})
