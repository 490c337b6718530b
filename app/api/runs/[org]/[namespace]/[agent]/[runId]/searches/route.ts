import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { forExistingRun } from '@/lib/queries/run-scoped'
import { runSearches } from '@/lib/queries/search-trace'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) =>
  forExistingRun(
    run,
    req.signal,
    () => runSearches(run, req.signal),
    (v) => v.searches.length === 0,
  ),
)
