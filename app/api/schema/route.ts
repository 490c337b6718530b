import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { cachedSchemaReport } from '@/lib/queries/schema-report'

export const dynamic = 'force-dynamic'

/** The schema report, cached (`checkedAt` says when it was read); `?refresh=1` reads it again. */
export const GET = serve(endpoints.schema, ({ query }) => cachedSchemaReport({ refresh: query.refresh === '1' }))
