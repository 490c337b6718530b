import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runConversationsJson } from '@/lib/queries/conversations'
import { requireRun } from '@/lib/queries/run-detail'

export const dynamic = 'force-dynamic'

export const GET = serve(endpoints.conversations, async ({ params: run }, req) => {
  // Thousands of turns are megabytes: ClickHouse writes their JSON, Node passes it on.
  const { json, empty } = await runConversationsJson(run, req.signal)
  // No conversation is an answer only for a run that exists; otherwise 404.
  if (empty) await requireRun(run, req.signal)
  return json
})
