'use client'

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import dynamic from 'next/dynamic'
import { useEffect, useState } from 'react'
import { count } from '@/lib/format'
import { links } from '@/lib/links'
import { withFlag, type RunsFilters } from '@/lib/runs-search'
import { NEAR_LIMIT_RATIO } from '@/lib/triage/flags'
import { CountLink } from './count-link'
import { eventsQueryOptions, runsAnalyticsQueryOptions } from '@/lib/api-client/runs'
import { chartRange } from './summary-model'
import { ErrorBanner } from '../ui/error-banner'
import { TopRuns } from './top-runs'
import { useSummaryOpen } from './use-summary-open'
import { DisclosureButton } from '../ui/disclosure-button'
import { Skeleton } from '../ui/skeleton'
import styles from './runs-summary.module.css'
import { Button } from '../ui/button'

const BODY_ID = 'runs-summary-body'

/** A chart card's place while its figures or its drawing code load. */
function CardSkeleton({ wide = false }: { wide?: boolean }) {
  return (
    <div className={wide ? `${styles.card} ${styles.cardWide}` : styles.card}>
      <Skeleton width="40%" />
      <Skeleton height={132} />
    </div>
  )
}

// The chart library (~290 KB of script) is not part of the page's first scripts: it loads beside
// the summary's request, so the table's rows and the page's start-up do not wait for it.
const loadCharts = () => import('./runs-charts')
const StatusChart = dynamic(() => loadCharts().then((m) => m.StatusChart), {
  ssr: false,
  loading: () => <CardSkeleton wide />,
})
const ResumesChart = dynamic(() => loadCharts().then((m) => m.ResumesChart), {
  ssr: false,
  loading: () => <CardSkeleton />,
})
const SizesChart = dynamic(() => loadCharts().then((m) => m.SizesChart), {
  ssr: false,
  loading: () => <CardSkeleton />,
})

/** The collapsible "Summary" panel above the runs table: one request for every chart, same filters as the table. */
export function RunsSummary({ filters, ready = true }: { filters: RunsFilters; ready?: boolean }) {
  const [open, setOpen] = useSummaryOpen()
  // A flag filter's summary checks the flags of every run the other filters select (the list reads
  // only as far as its page needs): on a large history that holds the engine for seconds, so it
  // waits for the operator to ask, once per filter.
  const filterKey = JSON.stringify(filters)
  const [askedFor, setAskedFor] = useState<string | null>(null)
  const waiting = !!filters.flag?.length && askedFor !== filterKey
  // `ready`: the runs list has its rows; the charts wait for it, so the table never waits for them.
  const query = useQuery({
    ...runsAnalyticsQueryOptions(filters),
    enabled: open && ready && !waiting,
    placeholderData: keepPreviousData,
  })
  const fetching = query.isFetching
  useEffect(() => {
    // Fetch the drawing code while the figures are on their way.
    if (open && fetching) void loadCharts()
  }, [open, fetching])
  const a = query.data
  // What operators and setup changed over the chart's range, marked on it.
  const range = a ? chartRange(a) : null
  const changes = useQuery({
    ...eventsQueryOptions({ ...(range ?? {}), org: filters.org, namespace: filters.namespace, agent: filters.agent }),
    enabled: open && !!range && !fetching,
  })
  const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`
  return (
    <section className={`panel ${styles.summary}`} aria-labelledby="runs-summary-title">
      <div className={styles.head}>
        <h2 id="runs-summary-title">
          <DisclosureButton open={open} controls={BODY_ID} onToggle={() => setOpen(!open)}>
            Summary
          </DisclosureButton>
        </h2>
        {a && open && !waiting ? (
          <span className="small muted" data-testid="summary-stats">
            <CountLink href={links.runsList(filters)}>{plural(a.totals.runs, 'run')}</CountLink> ·{' '}
            <CountLink href={links.runsList(withFlag(filters, 'resumed'))}>
              {plural(a.resumes.resumedRuns, 'resumed run')}
            </CountLink>{' '}
            ·{' '}
            <CountLink href={links.runsList(withFlag(filters, 'near_limit'))}>
              {plural(a.checkpointSizes.nearLimit + a.checkpointSizes.overLimit, 'checkpoint')} at ≥{' '}
              {NEAR_LIMIT_RATIO * 100}% of char_limit
            </CountLink>
          </span>
        ) : null}
        <span className="spacer" />
        {open && query.isFetching && a ? <span className="small muted">updating…</span> : null}
      </div>
      {open ? (
        <div id={BODY_ID}>
          {query.isError ? <ErrorBanner error={query.error} onRetry={() => query.refetch()} stale={!!a} /> : null}
          {waiting ? (
            <p className={`small ${styles.empty}`} data-testid="summary-on-request">
              The summary of a flag-filtered list checks the flags of every run the other filters select, which can take
              a while on a large history. <Button onClick={() => setAskedFor(filterKey)}>Compute summary</Button>
            </p>
          ) : !a ? (
            query.isError ? null : (
              <div className={styles.grid} aria-busy="true" aria-label="Loading summary" data-testid="summary-grid">
                {Array.from({ length: 5 }, (_, i) => (
                  <CardSkeleton key={i} wide={i === 0 || i > 2} />
                ))}
              </div>
            )
          ) : a.totals.runs === 0 ? (
            <p className={`muted small ${styles.empty}`}>No runs match these filters, so there is nothing to chart.</p>
          ) : (
            <div
              className={query.isPlaceholderData ? `${styles.grid} ${styles.stale}` : styles.grid}
              aria-busy={query.isPlaceholderData}
              data-testid="summary-grid"
            >
              <StatusChart data={a} filters={filters} events={changes.data?.events} />
              <ResumesChart data={a} filters={filters} />
              <SizesChart data={a} filters={filters} />
              <TopRuns
                title="Slowest runs (active time)"
                runs={a.slowest}
                metric="duration"
                empty="No finished run with a duration."
              />
              <TopRuns title="Costliest runs" runs={a.costliest} metric="cost" empty="No run with a recorded cost." />
            </div>
          )}
        </div>
      ) : null}
    </section>
  )
}
