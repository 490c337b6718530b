import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runsCsv } from '@/lib/queries/runs-csv'

export const dynamic = 'force-dynamic'

/** The runs the list's filters select, as one CSV download (newest first, up to `limit`). */
export const GET = serve(endpoints.runsCsv, async ({ query: { limit, ...filter } }, req) => {
  const max = limit ?? 10_000
  const csv = await runsCsv(filter, max, req.signal)
  return new Response(csv.text, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="loom-runs-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.csv"`,
      'cache-control': 'no-store',
      'x-loom-runs-count': String(csv.runs),
      // More runs matched than were written: the download is the newest `limit` of them.
      'x-loom-runs-truncated': csv.more ? 'true' : 'false',
    },
  })
})
