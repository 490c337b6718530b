import { queryOptions } from '@tanstack/react-query'
import type { CompareResponse } from '../api/types'
import { links } from '../links'
import { fetchJson } from './fetch-json'
import { runKeys } from './keys'

/** Two runs side by side; `a` and `b` are `org/namespace/agent/runId` with URL-encoded segments. */
export function compareQueryOptions(a: string, b: string | null) {
  return queryOptions({
    queryKey: runKeys.compare(a, b),
    queryFn: ({ signal }) => fetchJson<CompareResponse>(links.api.compare(a, b ?? undefined), { signal }),
    staleTime: 30_000,
  })
}
