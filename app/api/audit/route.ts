import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { consoleAudit } from '@/lib/queries/console-audit'

export const dynamic = 'force-dynamic'

/** Every operator write and batch the console recorded, newest first, filterable by operator, run and time. */
export const GET = serve(endpoints.audit, ({ query: { limit, ...q } }, req) =>
  consoleAudit({ ...q, limit: limit ?? 50 }, req.signal),
)
