import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { restoreBlock } from '@/lib/operator/writes'

export const dynamic = 'force-dynamic'

/** Restore: `{version, expectedVersion, reason, force?}` → the new version with that version's content. */
export const POST = serve(endpoints.restoreBlock, ({ params, query: { userId, sessionId }, body, who }) =>
  restoreBlock({ ref: { ...params, userId, sessionId }, operator: who.name, ...body }),
)
