'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { runKeys } from '@/lib/api-client/keys'
import type { RunSummary } from '@/lib/api/types'
import { runChangesQueryOptions } from '@/lib/api-client/runs'
import type { RunsFilters } from '@/lib/runs-search'
import { runKeyText } from '@/lib/loom/identity'

export const LIVE_POLL_MS = 5_000
/** The summary charts are heavier than the list: refresh them at most this often. */
const ANALYTICS_MIN_MS = 30_000

export const runRowKey = runKeyText

/**
 * Live refresh that scales: polls `GET /api/runs/changes` (a few timestamp columns) every few
 * seconds while `active`, and refetches the list (and, now and then, the summary) only when a run
 * it shows changed or a run that passes the filters was written. React Query stops the interval
 * while the tab is hidden.
 */
export function useLiveRuns(
  filters: RunsFilters,
  shown: RunSummary[] | undefined,
  active: boolean,
  listFetching = false,
) {
  const queryClient = useQueryClient()
  const changes = useQuery({
    ...runChangesQueryOptions(filters),
    // While the list itself is being read (a filter just changed) the poll waits: the engine answers
    // one statement at a time, and the rows come first.
    enabled: !listFetching,
    refetchInterval: active ? LIVE_POLL_MS : false,
    refetchIntervalInBackground: false,
  })
  // The latest changedAt acted on per run: overlapping polls report a write twice.
  const handled = useRef(new Map<string, string>())
  const analyticsAt = useRef(0)

  useEffect(() => {
    const data = changes.data
    if (!data) return
    const onPage = new Set((shown ?? []).map(runRowKey))
    let relevant = data.truncated
    for (const c of data.runs) {
      const k = runRowKey(c)
      if (handled.current.get(k) === c.changedAt) continue
      handled.current.set(k, c.changedAt)
      if (c.inFilter || onPage.has(k)) relevant = true
    }
    if (!relevant) return
    void queryClient.invalidateQueries({ queryKey: runKeys.lists() })
    const now = Date.now()
    if (now - analyticsAt.current >= ANALYTICS_MIN_MS) {
      analyticsAt.current = now
      void queryClient.invalidateQueries({ queryKey: runKeys.analyticsAll() })
    }
  }, [changes.data, shown, queryClient])

  return changes
}
