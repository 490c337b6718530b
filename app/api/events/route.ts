import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { consoleEvents } from '@/lib/queries/events'

export const dynamic = 'force-dynamic'

/** What operators and setup changed (single writes, batches, undos, setup runs), newest first. */
export const GET = serve(endpoints.events, ({ query: { limit, ...q } }, req) =>
  consoleEvents({ ...q, limit: limit ?? 200 }, req.signal),
)
