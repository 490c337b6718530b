import { queryOptions } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'
import { authKeys } from '@/lib/api-client/keys'

export type Me = { user: { name: string; role: string } | null; authRequired: boolean; canWrite: boolean; readOnly: boolean }

/** Who the browser is signed in as, and what the console lets them do. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => fetchJson<Me>('/api/auth/me', { signal }),
    staleTime: 60_000,
  })
}
