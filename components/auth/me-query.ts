import { queryOptions } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'
import { authKeys } from '@/lib/api-client/keys'
import type { Me } from '@/lib/auth/me'

export type { Me }

/** Who the browser is signed in as, and what the console lets them do. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => fetchJson<Me>('/api/auth/me', { signal }),
    staleTime: 60_000,
  })
}
