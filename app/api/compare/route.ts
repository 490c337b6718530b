import { compareQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { compareRuns } from '@/lib/queries/compare'

export const dynamic = 'force-dynamic'

/** Two runs side by side; without `b`, the same agent's last succeeded run that started before `a`. */
export const GET = route(null, async (req) => {
  const { a, b } = parseWith(compareQuerySchema, searchParamsObject(req, []), 'query')
  return compareRuns(a, b, req.signal)
})
