import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { listRuns } from '@/lib/queries/runs'
import { cachedRead } from '@/lib/server/read-cache'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.runs, ({ query: { cursor, limit, ...filter } }, req) => {
  const size = limit ?? 50
  return cachedRead('runs.list', { filter, cursor, size }, req.signal, (signal) =>
    listRuns({ filter, cursor, limit: size, signal }),
  )
})
