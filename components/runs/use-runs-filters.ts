'use client'

import { parseAsNativeArrayOf, parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs'
import { RUN_STATUSES } from '@/lib/runs-search'
import { RUN_FLAGS } from '@/lib/triage/flags'

export const STATUSES = RUN_STATUSES

/** Runs-page filters and page cursor, all kept in the URL so every view is a shareable link. */
export function useRunsFilters() {
  return useQueryStates(
    {
      org: parseAsString,
      namespace: parseAsString,
      agent: parseAsString,
      status: parseAsStringLiteral(STATUSES),
      q: parseAsString,
      from: parseAsString,
      to: parseAsString,
      /** Repeated in the URL (`flag=a&flag=b`): runs carrying every one of them. */
      flag: parseAsNativeArrayOf(parseAsStringLiteral(RUN_FLAGS)),
      cursor: parseAsString,
    },
    { history: 'push' },
  )
}
