import { runsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { listRuns } from '@/lib/queries/runs'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

export const GET = route(null, async (req) => {
  const { cursor, limit, ...filter } = parseWith(runsQuerySchema, searchParamsObject(req), 'query')
  const size = limit ?? 50
  return cachedRead('runs.list', { filter, cursor, size }, req.signal, (signal) =>
    listRuns({ filter, cursor, limit: size, signal }),
  )
})
