import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { replayPreview } from '@/lib/queries/replay'

export const dynamic = 'force-dynamic'

/** What going back to `toVersion` (omitted: a clear) makes the agent redo, and what the run did after it. */
export const GET = serve(endpoints.replay, ({ params, query: { userId, sessionId, toVersion } }, req) =>
  replayPreview({ ...params, userId, sessionId }, toVersion ?? null, req.signal),
)
