import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { compareRuns } from '@/lib/queries/compare'

export const dynamic = 'force-dynamic'

/** Two runs side by side; without `b`, the same agent's last succeeded run that started before `a`. */
export const GET = serve(endpoints.compare, ({ query }, req) => compareRuns(query.a, query.b, req.signal))
