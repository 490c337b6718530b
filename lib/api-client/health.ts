import { queryOptions } from '@tanstack/react-query'
import { endpoints } from '../endpoints/api'
import { endpointQuery, fetchEndpoint } from './endpoint'
import { healthKeys } from './keys'

export function healthQueryOptions() {
  return endpointQuery(endpoints.health, {})
}

/** How old the derived data is (the same health read, polled while a page shows derived data). */
export const FRESHNESS_POLL_MS = 10_000

export function derivedFreshnessQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.freshness,
    queryFn: async ({ signal }) => (await fetchEndpoint(endpoints.health, {}, signal)).derived,
    staleTime: FRESHNESS_POLL_MS,
    refetchInterval: FRESHNESS_POLL_MS,
  })
}
