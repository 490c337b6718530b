import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runChanges } from '@/lib/queries/run-changes'
import { noteRunChanges } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

/** Runs written after `since` within the filters' identity prefix, and the next watermark. */
export const GET = serve(endpoints.changes, async ({ query: { since, ...filter } }, req) =>
  noteRunChanges(await runChanges(filter, since, req.signal)),
)
