import { blockPathSchema, replayQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { replayPreview } from '@/lib/queries/replay'

export const dynamic = 'force-dynamic'

/** What going back to `toVersion` (omitted: a clear) makes the agent redo, and what the run did after it. */
export const GET = route(blockPathSchema, (req, path) => {
  const { userId, sessionId, toVersion } = parseWith(replayQuerySchema, searchParamsObject(req), 'query')
  return replayPreview({ ...path, userId, sessionId }, toVersion ?? null, req.signal)
})
