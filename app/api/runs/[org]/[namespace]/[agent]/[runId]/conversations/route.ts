import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { runConversations } from '@/lib/queries/conversations'
import { forExistingRun } from '@/lib/queries/run-scoped'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) =>
  forExistingRun(run, req.signal, () => runConversations(run, req.signal), (v) => v.conversations.length === 0),
)
