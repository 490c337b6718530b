import { blockPathSchema, blockSelectorSchema, clearBodySchema, editBodySchema } from '@/lib/api/schemas'
import { requireOperatorWrite } from '@/lib/auth/current'
import { readJsonBody } from '@/lib/http/body'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { clearBlock, editBlock } from '@/lib/operator/writes'
import { getBlockDetail } from '@/lib/queries/block-detail'
import type { NextRequest } from 'next/server'

export const dynamic = 'force-dynamic'

function blockRef(
  req: NextRequest,
  path: { org: string; namespace: string; agent: string; runId: string; blockKey: string },
) {
  const { userId, sessionId } = parseWith(blockSelectorSchema, searchParamsObject(req), 'query')
  return { ...path, userId, sessionId }
}

export const GET = route(blockPathSchema, (req, path) => getBlockDetail(blockRef(req, path), req.signal))

/** Edit: `{content, expectedVersion, reason, force?}` → the new version. */
export const PUT = route(blockPathSchema, async (req, path) => {
  const who = await requireOperatorWrite(req)
  const ref = blockRef(req, path)
  const body = await readJsonBody(req, editBodySchema)
  return editBlock({ ref, operator: who.name, ...body })
})

/** Clear: `{expectedVersion, reason, force?}` → the tombstone. */
export const DELETE = route(blockPathSchema, async (req, path) => {
  const who = await requireOperatorWrite(req)
  const ref = blockRef(req, path)
  const body = await readJsonBody(req, clearBodySchema)
  return clearBlock({ ref, operator: who.name, ...body })
})
