import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { runMemories } from '@/lib/queries/memory'
import { forExistingRun } from '@/lib/queries/run-scoped'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) =>
  forExistingRun(
    run,
    req.signal,
    () => runMemories(run, req.signal),
    (v) => v.written.length === 0 && v.used.length === 0,
  ),
)
