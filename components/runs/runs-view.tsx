'use client'

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useDeferredValue, useEffect, useMemo, useState, type FocusEvent, type PointerEvent } from 'react'
import type { RunsPage } from '@/lib/api/types'
import { runKeyText } from '@/lib/loom/identity'
import type { RunFlag } from '@/lib/triage/flags'
import { absoluteTime } from '@/lib/format'
import { links } from '@/lib/links'
import { runsFilters, runsListParams } from '@/lib/runs-search'
import { BatchActions } from '../batch/batch-actions'
import { RecentBatches } from '../batch/recent-batches'
import { SavedViews } from '../views/saved-views'
import { runsListQueryOptions } from '@/lib/api-client/runs'
import { ErrorBanner } from '../ui/error-banner'
import { NeedsAttention } from './needs-attention'
import { NoRunsMatch } from './no-runs-match'
import { RunsFilters } from './runs-filters'
import { RunsSummary } from './runs-summary'
import { RunsTable } from './runs-table'
import { SetupNotice } from './setup-notice'
import { DerivedFreshnessNote } from './derived-freshness'
import { LiveRefresh } from './live-refresh'
import { createReadingStore } from './reading-store'
import { useFreshRows } from './use-fresh-rows'
import { useRunsFilters } from './use-runs-filters'
import { Button, buttonClass } from '../ui/button'
import { SkeletonRows } from '../ui/skeleton'

/** True when the event comes from a row of the table body: the operator is reading that row. */
const onRow = (e: { target: EventTarget | null }) => e.target instanceof Element && !!e.target.closest('tbody tr')

/** The flags of a first page the server rendered without them, and the list key that page sits under. */
export type StreamedFlags = { queryKey: readonly unknown[]; flags: Promise<Record<string, RunFlag[]> | null> }

/** Puts streamed flags into the cached page when they arrive (or, when they could not be read, fetches the page whole). */
function useStreamedFlags(streamed: StreamedFlags | null) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!streamed) return
    void streamed.flags.then((byRun) => {
      if (!byRun) {
        void queryClient.refetchQueries({ queryKey: streamed.queryKey, exact: true })
        return
      }
      queryClient.setQueryData<RunsPage>(streamed.queryKey, (old) => {
        if (!old?.flagsPending) return old
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        const { flagsPending, ...page } = old
        return { ...page, runs: old.runs.map((r) => ({ ...r, flags: byRun[runKeyText(r)] ?? r.flags })) }
      })
    })
  }, [streamed, queryClient])
}

export function RunsView({ streamedFlags = null }: { streamedFlags?: StreamedFlags | null }) {
  const [f, setF] = useRunsFilters()
  const [paused, setPaused] = useState(false)
  const [reading] = useState(createReadingStore)
  const filters = runsFilters(f)
  // The panels around the list (counts, batch actions, charts) follow a changed filter a frame later:
  // React draws the narrowed table first.
  const deferredKey = useDeferredValue(JSON.stringify(filters))
  const around = useMemo(() => JSON.parse(deferredKey) as typeof filters, [deferredKey])
  // The same key the server filled for this URL (app/page.tsx): the first page is not fetched again.
  const params = runsListParams(filters, f.cursor)
  const query = useQuery({ ...runsListQueryOptions(params), placeholderData: keepPreviousData })
  const runs = query.data?.runs ?? []
  useStreamedFlags(streamedFlags)
  const pendingFlags = query.data?.flagsPending ? (streamedFlags?.flags ?? null) : null
  const searchedTo = query.data?.searchedTo
  const rowClassName = useFreshRows(
    JSON.stringify(params),
    query.data?.runs,
    query.isPlaceholderData,
    !!query.data?.flagsPending,
  )
  const readingHandlers = {
    onPointerOver: (e: PointerEvent) => reading.set('hover', onRow(e)),
    onPointerLeave: () => reading.set('hover', false),
    onFocus: (e: FocusEvent) => reading.set('focus', onRow(e)),
    onBlur: (e: FocusEvent<HTMLElement>) => {
      if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) reading.set('focus', false)
    },
  }

  return (
    <div className="stack">
      <div className="row">
        <div>
          <h1>Runs</h1>
          <p className="muted small flush">
            Every run Loom recorded, plus runs known only from their checkpoint. Newest first.
          </p>
        </div>
        <span className="spacer" />
        <a
          className={buttonClass('default', 'small')}
          href={links.api.runsCsv(filters)}
          download
          title="Every run these filters select, newest first (up to 10,000), as CSV"
        >
          Export CSV
        </a>
        <LiveRefresh
          filters={filters}
          shown={query.data?.runs}
          listFetching={query.isFetching}
          paused={paused}
          readingStore={reading}
          onTogglePause={() => setPaused((p) => !p)}
        />
      </div>
      <SetupNotice />
      <DerivedFreshnessNote />
      <NeedsAttention filters={around} ready={!query.isFetching} />
      <RunsFilters />
      <SavedViews filters={around} />
      <BatchActions filters={around} />
      <RecentBatches />
      {/* The list first: the charts' heavier queries would otherwise queue in front of it. */}
      <RunsSummary filters={around} ready={!query.isFetching} />
      {query.isError ? <ErrorBanner error={query.error} onRetry={() => query.refetch()} stale={!!query.data} /> : null}
      {query.isPending ? (
        <SkeletonRows label="Loading runs" rows={8} />
      ) : runs.length === 0 && !query.isError && !searchedTo ? (
        <NoRunsMatch
          filters={filters}
          pastLastPage={!!f.cursor}
          onClear={() =>
            setF({
              org: null,
              namespace: null,
              agent: null,
              status: null,
              q: null,
              from: null,
              to: null,
              flag: null,
              cursor: null,
            })
          }
        />
      ) : runs.length > 0 || searchedTo ? (
        <>
          {runs.length > 0 ? (
            <div className="runs-live" {...readingHandlers}>
              <RunsTable runs={runs} rowClassName={rowClassName} pendingFlags={pendingFlags} />
            </div>
          ) : null}
          {searchedTo ? (
            <p className="panel small" role="status" data-searched-to={searchedTo}>
              {runs.length === 0 ? (
                <strong>
                  No run on this page carries {f.flag && f.flag.length > 1 ? 'these flags' : 'this flag'}.{' '}
                </strong>
              ) : null}
              Checked runs started back to {absoluteTime(searchedTo)}; a flag-filtered page reads a bounded number of
              runs. Older runs were not checked yet: <em>Older →</em> goes on from there.
            </p>
          ) : null}
          <div className="pager">
            <span className="small muted">
              {runs.length} run{runs.length === 1 ? '' : 's'} on this page{query.isFetching ? ' · updating…' : ''}
            </span>
            <Button disabled={!f.cursor} onClick={() => setF({ cursor: null })}>
              ← Newest
            </Button>
            <button
              type="button"
              className={buttonClass()}
              disabled={!query.data?.nextCursor}
              onClick={() => setF({ cursor: query.data?.nextCursor ?? null })}
            >
              Older →
            </button>
          </div>
        </>
      ) : null}
    </div>
  )
}
