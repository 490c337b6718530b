'use client'

import { useState } from 'react'
import type { RunSummary } from '@/lib/api/types'
import { runRowKey } from './use-live-runs'

type Tracked = {
  listKey: string
  runs: RunSummary[] | undefined
  flagsPending: boolean
  fresh: ReadonlySet<string>
  generation: number
}

/**
 * Rows of `next` that are new or differ from the same run in `prev`. `flagsArrived`: `prev` was a
 * page rendered before its flags were read, so a row that only gained its flags did not change.
 */
export function changedRowKeys(prev: RunSummary[], next: RunSummary[], flagsArrived = false): Set<string> {
  const text = (r: RunSummary) => JSON.stringify(flagsArrived ? { ...r, flags: [] } : r)
  const before = new Map(prev.map((r) => [runRowKey(r), text(r)]))
  const out = new Set<string>()
  for (const r of next) {
    const k = runRowKey(r)
    if (before.get(k) !== text(r)) out.add(k)
  }
  return out
}

/**
 * Which rows just appeared or changed in a refetch of the same list (same filters and page), so
 * the table can flash them. A new page, new filters or placeholder data flash nothing.
 * `generation` alternates the highlight class, restarting the animation on a row that changes again.
 */
export function useFreshRows(
  listKey: string,
  runs: RunSummary[] | undefined,
  isPlaceholder: boolean,
  flagsPending = false,
) {
  const [tracked, setTracked] = useState<Tracked>({ listKey, runs, flagsPending, fresh: new Set(), generation: 0 })
  if (!isPlaceholder && runs !== tracked.runs) {
    const fresh =
      tracked.listKey === listKey && tracked.runs && runs
        ? changedRowKeys(tracked.runs, runs, tracked.flagsPending)
        : new Set<string>()
    setTracked({ listKey, runs, flagsPending, fresh, generation: tracked.generation + 1 })
  }
  return (r: RunSummary) =>
    tracked.fresh.has(runRowKey(r))
      ? tracked.generation % 2
        ? 'row-fresh row-fresh-a'
        : 'row-fresh row-fresh-b'
      : undefined
}
