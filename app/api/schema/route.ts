import { route } from '@/lib/http/handler'
import { getSchemaReport } from '@/lib/queries/schema-report'

export const dynamic = 'force-dynamic'

export const GET = route(null, async (req) => getSchemaReport(req.signal))
