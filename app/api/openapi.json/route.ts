import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { openApiDocument } from '@/lib/openapi/document'

export const dynamic = 'force-dynamic'

/**
 * The OpenAPI 3.1 description of this API. Public: it describes routes, parameters and shapes
 * (all of which the source code shows too), never data, names of databases or settings; the host
 * allow-list and the loopback-only rule still apply. It needs no database, so it answers while
 * ClickHouse is down.
 */
export const GET = serve(endpoints.openapi, () => openApiDocument())
