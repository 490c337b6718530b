import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { clearBlock, editBlock } from '@/lib/operator/writes'
import { getBlockDetail } from '@/lib/queries/block-detail'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.block, ({ params, query: { userId, sessionId } }, req) =>
  getBlockDetail({ ...params, userId, sessionId }, req.signal),
)

/** Edit: `{content, expectedVersion, reason, force?}` → the new version. */
export const PUT = serve(endpoints.editBlock, ({ params, query: { userId, sessionId }, body, who }) =>
  editBlock({ ref: { ...params, userId, sessionId }, operator: who.name, ...body }),
)

/** Clear: `{expectedVersion, reason, force?}` → the tombstone. */
export const DELETE = serve(endpoints.clearBlock, ({ params, query: { userId, sessionId }, body, who }) =>
  clearBlock({ ref: { ...params, userId, sessionId }, operator: who.name, ...body }),
)
