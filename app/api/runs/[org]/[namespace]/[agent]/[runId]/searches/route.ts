import { endpoints } from '@/lib/endpoints/api'
import { runScopedGet } from '@/lib/http/run-scoped-route'
import { runSearches } from '@/lib/queries/search-trace'

export const dynamic = 'force-dynamic'

export const GET = runScopedGet(endpoints.searches, runSearches, (v) => v.searches.length === 0)
