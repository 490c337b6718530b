import { eventsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { consoleEvents } from '@/lib/queries/events'

export const dynamic = 'force-dynamic'

/** What operators and setup changed (single writes, batches, undos, setup runs), newest first. */
export const GET = route(null, async (req) => {
  const { limit, ...q } = parseWith(eventsQuerySchema, searchParamsObject(req, []), 'query')
  return consoleEvents({ ...q, limit: limit ?? 200 }, req.signal)
})
