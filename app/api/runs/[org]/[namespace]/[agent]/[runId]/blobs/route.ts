import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { runBlobs } from '@/lib/queries/context-blobs'
import { forExistingRun } from '@/lib/queries/run-scoped'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) =>
  forExistingRun(
    run,
    req.signal,
    () => runBlobs(run, req.signal),
    (v) => v.blobs.length === 0 && v.missing.length === 0,
  ),
)
