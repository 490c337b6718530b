import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { getRunDetail } from '@/lib/queries/run-detail'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) =>
  cachedRead('run.detail', run, req.signal, (signal) => getRunDetail(run, signal)),
)
