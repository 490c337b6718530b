'use client'

import { useQuery } from '@tanstack/react-query'
import { meQueryOptions } from '@/lib/api-client/auth'

/** What the signed-in operator may do; write controls are hidden when they may not. */
export function usePermissions() {
  const q = useQuery(meQueryOptions())
  return { canWrite: q.data?.canWrite ?? false, readOnly: q.data?.readOnly ?? false, user: q.data?.user ?? null }
}
