'use client'

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs'

export const STATUSES = ['running', 'succeeded', 'failed', 'cancelled', 'unknown'] as const

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
      cursor: parseAsString,
    },
    { history: 'push' },
  )
}
