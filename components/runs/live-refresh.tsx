'use client'

import type { RunSummary } from '@/lib/api/types'
import type { RunsFilters } from '@/lib/runs-search'
import { Button } from '../ui/button'
import { useReading, type ReadingStore } from './reading-store'
import { LIVE_POLL_MS, useLiveRuns } from './use-live-runs'

/**
 * The live refresh's status and its Pause button. The poll lives here, not in the runs view: each
 * answer (every few seconds) re-renders this line only, not the table and the charts; so
 * does a change of `readingStore` (the pointer or focus entering a row).
 */
export function LiveRefresh({
  filters,
  shown,
  paused,
  readingStore,
  onTogglePause,
  listFetching = false,
}: {
  filters: RunsFilters
  shown: RunSummary[] | undefined
  /** The list is being read: the poll waits for it. */
  listFetching?: boolean
  paused: boolean
  readingStore: ReadingStore
  onTogglePause: () => void
}) {
  const reading = useReading(readingStore)
  const live = useLiveRuns(filters, shown, !paused && !reading, listFetching)
  return (
    <span className="refresh" aria-live="polite" data-live={paused ? 'paused' : reading ? 'reading' : 'on'}>
      {paused || reading ? (
        <span className="live-dot is-paused" aria-hidden />
      ) : (
        <span className="live-dot" aria-hidden />
      )}
      {paused
        ? 'Live refresh paused'
        : reading
          ? 'Paused while you read a row'
          : live.isError
            ? 'Could not check for changes; retrying'
            : `Live: checking for changes every ${LIVE_POLL_MS / 1000}s`}
      <Button onClick={onTogglePause} aria-pressed={paused}>
        {paused ? 'Resume' : 'Pause'}
      </Button>
    </span>
  )
}
