'use client'

import { useQuery } from '@tanstack/react-query'
import { fetchJson } from '@/lib/api-client/fetch-json'

type Me = { user: { name: string; role: string } | null; authRequired: boolean; canWrite: boolean; readOnly: boolean }

/** What the signed-in operator may do; write controls are hidden when they may not. */
export function usePermissions() {
  const q = useQuery({
    queryKey: ['auth', 'me'],
    queryFn: ({ signal }) => fetchJson<Me>('/api/auth/me', { signal }),
    staleTime: 60_000,
  })
  return { canWrite: q.data?.canWrite ?? false, readOnly: q.data?.readOnly ?? false, user: q.data?.user ?? null }
}
