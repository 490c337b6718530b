import { queryOptions } from '@tanstack/react-query'
import type { HealthResponse } from '../api/types'
import { links } from '../links'
import { fetchJson } from './fetch-json'
import { jsonQuery } from './json-query'
import { healthKeys } from './keys'

export function healthQueryOptions() {
  return jsonQuery<HealthResponse>(healthKeys.all, () => links.api.health(), { staleTime: 60_000 })
}

/** How old the derived data is (the same health read, polled while a page shows derived data). */
export const FRESHNESS_POLL_MS = 10_000

export function derivedFreshnessQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.freshness,
    queryFn: async ({ signal }) => (await fetchJson<HealthResponse>(links.api.health(), { signal })).derived,
    staleTime: FRESHNESS_POLL_MS,
    refetchInterval: FRESHNESS_POLL_MS,
  })
}
