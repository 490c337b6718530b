import { schemaQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { cachedSchemaReport } from '@/lib/queries/schema-report'

export const dynamic = 'force-dynamic'

/** The schema report, cached (`checkedAt` says when it was read); `?refresh=1` reads it again. */
export const GET = route(null, async (req) => {
  const q = parseWith(schemaQuerySchema, searchParamsObject(req), 'query')
  return cachedSchemaReport({ refresh: q.refresh === '1' })
})
