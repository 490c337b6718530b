import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { getRunDetail } from '@/lib/queries/run-detail'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, (req, run) => getRunDetail(run, req.signal))
