import { z } from 'zod'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { cachedSchemaReport } from '@/lib/queries/schema-report'

export const dynamic = 'force-dynamic'

const schemaQuery = z.strictObject({
  refresh: z.enum(['0', '1'], { message: 'refresh must be 0 or 1' }).optional(),
})

/** The schema report, cached (`checkedAt` says when it was read); `?refresh=1` reads it again. */
export const GET = route(null, async (req) => {
  const q = parseWith(schemaQuery, searchParamsObject(req), 'query')
  return cachedSchemaReport({ refresh: q.refresh === '1' })
})
