'use client'

import { useQuery } from '@tanstack/react-query'
import dynamic from 'next/dynamic'
import Link from 'next/link'
import { absoluteTime, count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import type { LoggedSearch, MemoryWrite, SearchHit } from '@/lib/api/types'
import { runSearchesQueryOptions } from '@/lib/api-client/run-tabs'
import { Tag } from '../ui/badge'
import { prettyContent } from '../ui/content-view'
import { EmptyState } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { Skeleton, SkeletonPanel } from '../ui/skeleton'
import { TableHead, type Column } from '../ui/table-head'
import { TimeAgo } from '../ui/time-ago'
import { ListCutNotice } from '../ui/list-cut-notice'
import { ShowMore, useShownCount } from '../ui/show-more'
import tables from './story-tables.module.css'

const ENV = 'LOOM_SEARCH_TRACE_LOG_ENABLED=true'

// The chart library loads with the first chart, not with the page.
const HitsChart = dynamic(() => import('./search-hits-chart').then((m) => m.HitsChart), {
  ssr: false,
  loading: () => <Skeleton height={60} />,
})

function TraceLogOff({ state }: { state: 'missing' | 'empty' }) {
  return (
    <EmptyState
      title={state === 'missing' ? 'The search trace log is off' : 'The search trace log has no rows for this run'}
    >
      <p>
        {state === 'missing'
          ? 'There is no search trace table in this ClickHouse, so no search is logged.'
          : 'The trace log table exists, but no search carries this run_id: the run searched nothing, or logging was off while it ran.'}
      </p>
      <p>
        To log searches, set <code>{ENV}</code> on the Loom server and restart it; searches made after that show here.
      </p>
    </EmptyState>
  )
}

/** Filters on one line: they are usually a few tags; JSON is re-serialized compactly. */
function filtersText(filters: string): string | null {
  const t = filters.trim()
  if (t === '' || t === '{}' || t === '[]' || t === 'null') return null
  const pretty = prettyContent(t)
  return pretty.isJson ? JSON.stringify(JSON.parse(pretty.text)) : t
}

function WriterLink({ runRef, w, memoryKey }: { runRef: RunRef; w: MemoryWrite; memoryKey: string }) {
  if (w.runId === runRef.runId && w.agent === runRef.agent) return <>this run</>
  return (
    <Link
      prefetch={false}
      href={links.run(
        { org: runRef.org, namespace: runRef.namespace, agent: w.agent, runId: w.runId },
        { tab: 'memories', memory: memoryKey },
      )}
      aria-label={`Writer run ${w.runId} (${w.agent})`}
    >
      <span className="mono">{w.runId}</span>
    </Link>
  )
}

/** Who had written the hit when the search ran, and any write that came after it (labelled as later). */
function HitWriters({ runRef, hit, at }: { runRef: RunRef; hit: SearchHit; at: string }) {
  const later = hit.writtenAfter
  return (
    <span className={tables.srWriters}>
      {hit.writtenBy ? (
        <span className="small">
          <WriterLink runRef={runRef} w={hit.writtenBy} memoryKey={hit.memoryKey} />{' '}
          <span className="muted">v{hit.writtenBy.version}</span>
        </span>
      ) : (
        <span
          className="small muted"
          title="The version the search returned is not stored any more (merged away), or was written outside Loom"
        >
          {hit.searchedVersionGone ? 'unknown: no stored version is older than the search' : 'unknown'}
        </span>
      )}
      {later ? (
        <span className="small muted" title={absoluteTime(later.at)}>
          later: v{later.version} by <WriterLink runRef={runRef} w={later} memoryKey={hit.memoryKey} />,{' '}
          {duration(Date.parse(later.at) - Date.parse(at))} after the search
        </span>
      ) : null}
    </span>
  )
}

const HIT_COLUMNS: readonly Column[] = [
  { label: '#', className: 'num' },
  'memory_key',
  { label: 'score', className: 'num' },
  { label: 'in memories_used', title: "Listed in the run's memories_used" },
  {
    label: 'written by (at search time)',
    title: 'Who had written the memory when the search ran; writes after it are labelled later',
  },
]

function HitsTable({ runRef, hits, at }: { runRef: RunRef; hits: SearchHit[]; at: string }) {
  return (
    <div className="table-wrap">
      <table className={`data ${tables.srHits}`} aria-label="Ranked hits">
        <TableHead columns={HIT_COLUMNS} />
        <tbody>
          {hits.map((h) => (
            <tr
              key={`${h.rank}-${h.memoryKey}`}
              className={h.usedByRun ? 'is-used' : undefined}
              data-memory-key={h.memoryKey}
            >
              <td className="num">{h.rank}</td>
              <td className="mono">
                <Link prefetch={false} href={links.run(runRef, { tab: 'memories', memory: h.memoryKey })}>
                  {h.memoryKey}
                </Link>
              </td>
              <td className="num mono">{h.score.toFixed(3)}</td>
              <td>
                {h.usedByRun ? (
                  <Tag tone="ok" className={tables.memUsed} title="The run listed this memory in memories_used">
                    used
                  </Tag>
                ) : (
                  <span className="small muted">—</span>
                )}
              </td>
              <td>
                <HitWriters runRef={runRef} hit={h} at={at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function SearchCard({ runRef, s, n }: { runRef: RunRef; s: LoggedSearch; n: number }) {
  const filters = filtersText(s.filters)
  const used = s.hits.filter((h) => h.usedByRun).length
  return (
    <article className="panel stack" aria-labelledby={`sr-q-${n}`} data-search-id={s.searchId}>
      <header className={`row ${tables.srHead}`}>
        <h3 id={`sr-q-${n}`} className={tables.srQuery}>
          <span className="muted small">#{n}</span> “{s.query}”
        </h3>
        <Tag className={tables.srMode}>{s.mode}</Tag>
        <span className="spacer" />
        <span className="small muted" title={absoluteTime(s.at)}>
          <TimeAgo iso={s.at} />
        </span>
      </header>
      <dl className={tables.srMeta}>
        <div>
          <dt>latency</dt>
          <dd>{s.latencyMs.toFixed(s.latencyMs < 10 ? 2 : 1)} ms</dd>
        </div>
        <div>
          <dt>top_k</dt>
          <dd>{s.topK}</dd>
        </div>
        <div>
          <dt>hits</dt>
          <dd>
            {count(s.hits.length)}
            {used ? <span className="muted"> · {used} used</span> : null}
          </dd>
        </div>
        <div>
          <dt>filters</dt>
          <dd>{filters ? <code className={tables.srFilters}>{filters}</code> : <span className="muted">none</span>}</dd>
        </div>
        <div>
          <dt>time</dt>
          <dd className="small">{absoluteTime(s.at)}</dd>
        </div>
      </dl>
      {s.hits.length === 0 ? (
        <p className="muted small">No hits.</p>
      ) : (
        <div className={tables.srBody}>
          <HitsChart hits={s.hits} />
          <HitsTable runRef={runRef} hits={s.hits} at={s.at} />
        </div>
      )}
    </article>
  )
}

/** Searches shown at first, and added per "Show more": each card draws a chart and a table of hits. */
const SEARCHES_STEP = 10

function SearchCards({ runRef, searches }: { runRef: RunRef; searches: LoggedSearch[] }) {
  const { shown, showMore } = useShownCount(searches.length, SEARCHES_STEP)
  return (
    <>
      {searches.slice(0, shown).map((s, i) => (
        <SearchCard key={s.searchId} runRef={runRef} s={s} n={i + 1} />
      ))}
      <ShowMore shown={shown} total={searches.length} step={SEARCHES_STEP} noun="searches" onMore={showMore} />
    </>
  )
}

/** Each logged search of the run with its ranked hits, which ones the run used, and who wrote them. */
export function SearchesTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runSearchesQueryOptions(runRef))
  return (
    <QueryState
      query={q}
      pending={<SkeletonPanel label="Loading searches" rows={5} />}
      className="stack story"
      isEmpty={(data) => data.traceLog !== 'on' || data.searches.length === 0}
      empty={(data) => (
        <>
          <ListCutNotice cuts={data.cuts} nouns={{ searches: 'searches' }} />
          <TraceLogOff state={data.traceLog === 'missing' ? 'missing' : 'empty'} />
        </>
      )}
    >
      {({ searches, cuts }) => (
        <>
          <ListCutNotice cuts={cuts} nouns={{ searches: 'searches' }} />
          <div className={`row small muted ${tables.srLegend}`}>
            <span>
              {count(searches.length)} search{searches.length > 1 ? 'es' : ''}, oldest first.
            </span>
            <span className={`row ${tables.srLegendItem}`}>
              <span className={`${tables.srSwatch} ${tables.srSwatchUsed}`} aria-hidden /> used by the run
            </span>
            <span className={`row ${tables.srLegendItem}`}>
              <span className={tables.srSwatch} aria-hidden /> not used
            </span>
          </div>
          <SearchCards runRef={runRef} searches={searches} />
        </>
      )}
    </QueryState>
  )
}
