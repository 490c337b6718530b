import { runsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { listRuns } from '@/lib/queries/runs'

export const dynamic = 'force-dynamic'

export const GET = route(null, async (req) => {
  const { cursor, limit, ...filter } = parseWith(runsQuerySchema, searchParamsObject(req), 'query')
  return listRuns(filter, cursor, limit ?? 50, req.signal)
})
