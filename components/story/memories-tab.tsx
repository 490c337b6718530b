'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { parseAsString, useQueryState } from 'nuqs'
import { useEffect, type ReactNode } from 'react'
import { count } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import type { UsedMemory, WrittenMemory } from '@/lib/api/types'
import { runMemoriesQueryOptions } from '@/lib/api-client/run-tabs'
import { Tag, type TagTone } from '../ui/badge'
import { prettyContent } from '../ui/content-view'
import { Banner } from '../ui/banner'
import { EmptyState } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { SkeletonPanel } from '../ui/skeleton'
import { TimeAgo } from '../ui/time-ago'
import { ListCutNotice } from '../ui/list-cut-notice'
import { ShowMore, useShownCount } from '../ui/show-more'
import { TableHead, type Column } from '../ui/table-head'
import tables from './story-tables.module.css'

/** A memory value: one line folded, pretty JSON when opened. */
export function FoldedValue({ value, label }: { value: string; label: string }) {
  if (value === '') return <span className="muted small">(empty)</span>
  const oneLine = value.replace(/\s+/g, ' ')
  return (
    <details className={tables.memValue}>
      <summary>
        <code>{oneLine.length > 48 ? `${oneLine.slice(0, 48)}…` : oneLine}</code>
      </summary>
      <pre className="content" aria-label={label}>
        {prettyContent(value).text}
      </pre>
    </details>
  )
}

function StatusTag({ status }: { status: string }) {
  const tone: TagTone =
    status === 'live' || status === 'active' ? 'ok' : status === 'deleted' || status === 'retracted' ? 'bad' : 'warning'
  return <Tag tone={tone}>{status || '—'}</Tag>
}

function Confidence({ value }: { value: number }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100)
  return (
    <span className={`row ${tables.memConfidence} gap-6`} title={`confidence ${value}`}>
      <span className="meter" aria-hidden>
        <span style={{ width: `${pct}%` }} />
      </span>
      <span className="small">{pct}%</span>
    </span>
  )
}

function keyLink(runRef: RunRef, key: string) {
  return (
    <Link
      prefetch={false}
      href={links.run(runRef, { tab: 'memories', memory: key })}
      scroll={false}
      className={`mono ${tables.memKey}`}
    >
      {key}
    </Link>
  )
}

/** What is known about a memory's versions: which are still stored, and how many earlier numbers are not. */
function StoredVersions({ m }: { m: WrittenMemory }) {
  const latest = Number(m.version)
  const missing = Number.isSafeInteger(latest) ? Math.max(0, latest - m.versionCount) : 0
  const shown = m.versionsStored.length === m.versionCount ? m.versionsStored.map((v) => `v${v}`).join(', ') : null
  return (
    <span className={tables.memStored}>
      <span className="small">
        {count(m.versionCount)} stored{shown ? <span className="muted mono"> ({shown})</span> : null}
      </span>
      {missing > 0 ? (
        <span className="small muted">
          {missing === 1 ? `v${latest - 1} is` : `${count(missing)} earlier versions are`} not stored: merged away, or
          written by another run
        </span>
      ) : null}
    </span>
  )
}

/** Rows each memories table shows at first, and adds per "Show more" (the row a link names always shows). */
const ROWS_STEP = 50

type TableProps<M> = { runRef: RunRef; rows: M[]; target: string | null }

/**
 * One table of memories, a row per key (its first cell links to it), the row a link names marked
 * and always shown, the rest by `ROWS_STEP` per "Show more"; `cells` gives a row's other cells.
 */
function MemoryTable<M extends { memoryKey: string }>({
  runRef,
  rows: all,
  target,
  label,
  noun,
  columns,
  cells,
}: TableProps<M> & {
  label: string
  noun: string
  columns: readonly Column[]
  cells: (m: M) => ReactNode
}) {
  const { shown, showMore } = useShownCount(
    all.length,
    ROWS_STEP,
    all.findIndex((m) => m.memoryKey === target),
  )
  return (
    <>
      <div className="table-wrap">
        <table className={`data ${tables.memTable}`} aria-label={label}>
          <TableHead columns={columns} />
          <tbody>
            {all.slice(0, shown).map((m) => (
              <tr
                key={m.memoryKey}
                data-memory-key={m.memoryKey}
                className={m.memoryKey === target ? tables.isTarget : undefined}
                aria-current={m.memoryKey === target ? 'true' : undefined}
              >
                <td>{keyLink(runRef, m.memoryKey)}</td>
                {cells(m)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore shown={shown} total={all.length} step={ROWS_STEP} noun={noun} onMore={showMore} />
    </>
  )
}

const WRITTEN_COLUMNS: readonly Column[] = [
  'memory_key',
  { label: 'latest version', title: 'The version number counts every write to this key, by any run' },
  {
    label: 'versions stored',
    title: 'Rows of this run still stored for the key: older versions disappear when ClickHouse merges parts',
  },
  ...['status', 'confidence', 'type', 'updated', 'value'],
]

function WrittenTable(props: TableProps<WrittenMemory>) {
  return (
    <MemoryTable
      {...props}
      label="Memories written by this run"
      noun="memories written"
      columns={WRITTEN_COLUMNS}
      cells={(m) => (
        <>
          <td className="mono">v{m.version}</td>
          <td>
            <StoredVersions m={m} />
          </td>
          <td>
            <StatusTag status={m.status} />
          </td>
          <td>
            <Confidence value={m.confidence} />
          </td>
          <td className="small">{m.memoryType || '—'}</td>
          <td className="small">
            <TimeAgo iso={m.updatedAt} />
          </td>
          <td className={tables.memValueCell}>
            <FoldedValue value={m.value} label={`Value of ${m.memoryKey}`} />
          </td>
        </>
      )}
    />
  )
}

function ReliedTable(props: TableProps<UsedMemory>) {
  const { runRef } = props
  return (
    <MemoryTable
      {...props}
      label="Memories this run relied on"
      noun="memories relied on"
      columns={['memory_key', 'how', 'written by', 'latest version', 'status', 'value']}
      cells={(m) => {
        const w = m.writtenBy
        const self = w?.runId === runRef.runId && w.agent === runRef.agent
        return (
          <>
            <td>
              <span className="row gap-4">
                {m.used ? (
                  <Tag tone="ok" className={tables.memUsed} title="Listed in memories_used at run.complete">
                    used
                  </Tag>
                ) : null}
                {m.recalled ? (
                  <Tag tone="accent" title="Returned by a recall (recalled_keys)">
                    recalled
                  </Tag>
                ) : null}
              </span>
            </td>
            <td>
              {w ? (
                self ? (
                  <span className="small muted">this run</span>
                ) : (
                  <Link
                    prefetch={false}
                    href={links.run(
                      { org: runRef.org, namespace: runRef.namespace, agent: w.agent, runId: w.runId },
                      { tab: 'memories', memory: m.memoryKey },
                    )}
                    aria-label={`Writer run ${w.runId} (${w.agent})`}
                  >
                    <span className="mono">{w.runId}</span> <span className="small muted">{w.agent}</span>
                  </Link>
                )
              ) : (
                <span
                  className="small muted"
                  title="No memory row with this key in the namespace: it was deleted, or written outside Loom"
                >
                  unknown
                </span>
              )}
            </td>
            <td className="mono">{w ? `v${w.version}` : '—'}</td>
            <td>{w ? <StatusTag status={w.status} /> : '—'}</td>
            <td className={tables.memValueCell}>
              {w ? <FoldedValue value={w.value} label={`Value of ${m.memoryKey}`} /> : '—'}
            </td>
          </>
        )
      }}
    />
  )
}

/** Memories the run wrote and those it relied on, cross-linked to the runs that wrote them. */
export function MemoriesTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runMemoriesQueryOptions(runRef))
  const [memory] = useQueryState('memory', parseAsString)
  const loaded = q.data !== undefined

  // Bring the memory named in the URL into view once its row exists.
  useEffect(() => {
    if (!memory || !loaded) return
    const row = document.querySelector(`tr[data-memory-key="${CSS.escape(memory)}"]`)
    row?.scrollIntoView({ block: 'center' })
  }, [memory, loaded])

  return (
    <QueryState query={q} pending={<SkeletonPanel label="Loading memories" rows={5} />} className="stack story">
      {({ written, relied, cuts }) => {
        const found =
          !memory || written.some((m) => m.memoryKey === memory) || relied.some((m) => m.memoryKey === memory)
        const usedCount = relied.filter((m) => m.used).length
        return (
          <>
            <ListCutNotice cuts={cuts} nouns={{ written: 'memories written by this run (by key)' }} />
            {!found ? (
              <Banner tone="info">
                <span>
                  This run neither wrote nor relied on <code>{memory}</code>.
                </span>
              </Banner>
            ) : null}
            <section className="stack story-section" aria-labelledby="mem-written-title">
              <h2 id="mem-written-title">
                Written by this run <span className="count-pill">{count(written.length)}</span>
              </h2>
              {written.length === 0 ? (
                <EmptyState title="This run wrote no memories" />
              ) : (
                <WrittenTable runRef={runRef} rows={written} target={memory} />
              )}
            </section>
            <section className="stack story-section" aria-labelledby="mem-relied-title">
              <h2 id="mem-relied-title">
                Relied on <span className="count-pill">{count(relied.length)}</span>
                <span className="small muted heading-note">
                  {' '}
                  {usedCount} used (memories_used), {relied.filter((m) => m.recalled).length} recalled (recalled_keys)
                </span>
              </h2>
              {relied.length === 0 ? (
                <EmptyState title="This run relied on no memories">
                  Nothing in its memories_used or recalled_keys.
                </EmptyState>
              ) : (
                <ReliedTable runRef={runRef} rows={relied} target={memory} />
              )}
            </section>
          </>
        )
      }}
    </QueryState>
  )
}
