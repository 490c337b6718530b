import { queryOptions } from '@tanstack/react-query'
import type { HealthResponse } from '../api/types'
import { links } from '../links'
import { fetchJson } from './fetch-json'
import { healthKeys } from './keys'

export function healthQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => fetchJson<HealthResponse>(links.api.health(), { signal }),
    staleTime: 60_000,
  })
}
