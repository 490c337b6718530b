import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { getRunDetail } from '@/lib/queries/run-detail'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.run, ({ params: run }, req) =>
  cachedRead('run.detail', run, req.signal, (signal) => getRunDetail(run, signal)),
)
