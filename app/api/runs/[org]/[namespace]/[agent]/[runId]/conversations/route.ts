import { runPathSchema } from '@/lib/api/schemas'
import { JsonText } from '@/lib/clickhouse/query'
import { route } from '@/lib/http/handler'
import { runConversationsJsonText } from '@/lib/queries/conversations'
import { getRunDetail } from '@/lib/queries/run-detail'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  // Thousands of turns are megabytes: ClickHouse writes their JSON, Node splices it into the answer.
  const { text, empty } = await runConversationsJsonText(run, req.signal)
  // No conversation is an answer only for a run that exists; otherwise 404.
  if (empty) await getRunDetail(run, req.signal)
  return new JsonText(text)
})
