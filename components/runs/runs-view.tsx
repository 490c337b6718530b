'use client'

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { runsListQueryOptions } from '../data/run-queries'
import { ErrorBanner } from '../ui/error-banner'
import { RunsFilters } from './runs-filters'
import { RunsTable } from './runs-table'
import { useRunsFilters } from './use-runs-filters'

const PAGE_SIZE = 50
const REFRESH_MS = 5_000

export function RunsView() {
  const [f, setF] = useRunsFilters()
  const [paused, setPaused] = useState(false)
  const params = {
    org: f.org ?? undefined,
    namespace: f.namespace ?? undefined,
    agent: f.agent ?? undefined,
    status: f.status ?? undefined,
    q: f.q ?? undefined,
    from: f.from ?? undefined,
    to: f.to ?? undefined,
    cursor: f.cursor ?? undefined,
    limit: String(PAGE_SIZE),
  }
  const query = useQuery({
    ...runsListQueryOptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      !paused && q.state.data?.runs.some((r) => r.status === 'running') ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
  })
  const runs = query.data?.runs ?? []
  const anyRunning = runs.some((r) => r.status === 'running')

  return (
    <div className="stack">
      <div className="row">
        <div>
          <h1>Runs</h1>
          <p className="muted small" style={{ margin: 0 }}>
            Every run Loom recorded, plus runs known only from their checkpoint. Newest first.
          </p>
        </div>
        <span className="spacer" />
        {anyRunning ? (
          <span className="refresh" aria-live="polite">
            {paused ? null : <span className="live-dot" aria-hidden />}
            {paused ? 'Auto-refresh paused' : `Refreshing every ${REFRESH_MS / 1000}s while runs are running`}
            <button type="button" className="btn" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
              {paused ? 'Resume' : 'Pause'}
            </button>
          </span>
        ) : null}
      </div>
      <RunsFilters />
      {query.isError ? (
        <ErrorBanner error={query.error} onRetry={() => query.refetch()} stale={!!query.data} />
      ) : null}
      {query.isPending ? (
        <div className="panel stack" aria-busy="true" aria-label="Loading runs">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="skeleton" />
          ))}
        </div>
      ) : runs.length === 0 && !query.isError ? (
        <div className="panel empty">
          <p>
            <strong>No runs match.</strong>
          </p>
          <p className="small">
            {f.cursor ? 'This page is past the last run.' : 'Try a wider time range or clear the filters.'}
          </p>
        </div>
      ) : runs.length > 0 ? (
        <>
          <RunsTable runs={runs} />
          <div className="pager">
            <span className="small muted">
              {runs.length} run{runs.length === 1 ? '' : 's'} on this page{query.isFetching ? ' · updating…' : ''}
            </span>
            <button type="button" className="btn" disabled={!f.cursor} onClick={() => setF({ cursor: null })}>
              ← Newest
            </button>
            <button
              type="button"
              className="btn"
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
