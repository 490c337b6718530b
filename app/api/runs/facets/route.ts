import { endpoints } from '@/lib/endpoints/api'
import { serve } from '@/lib/http/serve'
import { runFacets } from '@/lib/queries/run-facets'

export const dynamic = 'force-dynamic'

/** Suggestions for the org / namespace / agent filters: values starting with `prefix`, most runs first. */
export const GET = serve(endpoints.facets, ({ query: { limit, ...q } }, req) =>
  runFacets({ ...q, limit: limit ?? 10 }, req.signal),
)
