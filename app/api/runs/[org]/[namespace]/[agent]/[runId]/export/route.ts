import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { exportRunStream } from '@/lib/queries/export'

export const dynamic = 'force-dynamic'

/** The run as one JSON download, streamed while it is read. */
export const GET = serve(endpoints.export, async ({ params: run }, req) => {
  const body = await exportRunStream(run, req.signal)
  const name = `loom-run-${run.runId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.json`
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  })
})
