import { auditQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { consoleAudit } from '@/lib/queries/console-audit'

export const dynamic = 'force-dynamic'

/** Every operator write and batch the console recorded, newest first, filterable by operator, run and time. */
export const GET = route(null, async (req) => {
  const { limit, ...q } = parseWith(auditQuerySchema, searchParamsObject(req), 'query')
  return consoleAudit({ ...q, limit: limit ?? 50 }, req.signal)
})
