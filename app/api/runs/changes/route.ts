import { changesQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { runChanges } from '@/lib/queries/run-changes'
import { noteRunChanges } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Runs written after `since` within the filters' identity prefix, and the next watermark. */
export const GET = route(null, async (req) => {
  const { since, ...filter } = parseWith(changesQuerySchema, searchParamsObject(req), 'query')
  return noteRunChanges(await runChanges(filter, since, req.signal))
})
