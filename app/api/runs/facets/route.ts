import { facetsQuerySchema } from '@/lib/api/schemas'
import { parseWith, route, searchParamsObject } from '@/lib/http/handler'
import { runFacets } from '@/lib/queries/run-facets'

export const dynamic = 'force-dynamic'

/** Suggestions for the org / namespace / agent filters: values starting with `prefix`, most runs first. */
export const GET = route(null, async (req) => {
  const { limit, ...q } = parseWith(facetsQuerySchema, searchParamsObject(req, []), 'query')
  return runFacets({ ...q, limit: limit ?? 10 }, req.signal)
})
