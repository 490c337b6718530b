import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runAudit } from '@/lib/queries/audit'
import { requireRun } from '@/lib/queries/run-detail'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.runAudit, async ({ params: run }, req) => {
  const audit = await runAudit(run, req.signal)
  // An empty log is an answer only for a run that exists.
  if (audit.entries.length === 0) await requireRun(run, req.signal)
  return audit
})
