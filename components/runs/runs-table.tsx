import Link from 'next/link'
import { Suspense, use } from 'react'
import { LinkPending } from '../ui/link-pending'
import type { RunSummary } from '@/lib/api/types'
import { cost, count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import { CharMeter } from '../ui/checkpoint-meter'
import { StatusBadge, Tag } from '../ui/badge'
import { TableHead, type Column } from '../ui/table-head'
import { TimeAgo } from '../ui/time-ago'
import { FlagBadges } from './flag-badges'
import { runKeyText } from '@/lib/loom/identity'
import type { RunFlag } from '@/lib/triage/flags'

const RUN_COLUMNS: readonly Column[] = [
  'Status',
  'Goal / run',
  'Agent',
  { label: 'Attempts', className: 'num', title: 'run.begin calls: each resume adds one' },
  'Started',
  { label: 'Duration', className: 'num' },
  { label: 'Turns', className: 'num' },
  { label: 'Cost', className: 'num' },
  'Checkpoint',
]

function CheckpointCell({ run }: { run: RunSummary }) {
  const cp = run.checkpoint
  if (!cp) return <span className="muted small">none</span>
  return (
    <div className="stack gap-3">
      <span className="row gap-6">
        <span className="mono">v{cp.version}</span>
        {cp.isDeleted ? <Tag>cleared</Tag> : null}
        <span className="small muted">
          <TimeAgo iso={cp.updatedAt} />
        </span>
      </span>
      {cp.isDeleted ? null : <CharMeter chars={cp.chars} limit={cp.charLimit} />}
    </div>
  )
}

type PendingFlags = Promise<Record<string, RunFlag[]> | null>

/** A row's flags from the promise the server streams after the rows (null: they could not be read; the page is fetched again). */
function StreamedFlagBadges({ pending, runKey }: { pending: PendingFlags; runKey: string }) {
  const byRun = use(pending)
  return byRun ? <FlagBadges flags={byRun[runKey]} /> : null
}

function RowFlags({ run, pending }: { run: RunSummary; pending: PendingFlags | null }) {
  if (!pending) return <FlagBadges flags={run.flags} />
  return (
    <Suspense
      fallback={
        <span className="small muted" data-flags-pending>
          checking flags…
        </span>
      }
    >
      <StreamedFlagBadges pending={pending} runKey={runKeyText(run)} />
    </Suspense>
  )
}

export function RunsTable({
  runs,
  rowClassName,
  pendingFlags = null,
}: {
  runs: RunSummary[]
  rowClassName?: (run: RunSummary) => string | undefined
  /** Set while the page's flags are still on their way: each row shows them when they arrive. */
  pendingFlags?: PendingFlags | null
}) {
  return (
    <div className="table-wrap">
      <table className="data runs-cards" aria-label="Runs">
        <TableHead columns={RUN_COLUMNS} />
        <tbody>
          {runs.map((r) => (
            <tr key={runKeyText(r)} data-run-id={r.runId} className={rowClassName?.(r)}>
              <td data-label="Status">
                <StatusBadge status={r.status} />
              </td>
              <td data-label="Goal / run" className="card-goal">
                <Link href={links.run(r)} prefetch={false} className="goal" title={r.goal || r.runId}>
                  {r.goal || <em className="muted">no goal recorded</em>}
                  <LinkPending label={`Opening run ${r.runId}`} />
                </Link>
                <span className="runid">{r.runId}</span>
                <RowFlags run={r} pending={pendingFlags} />
              </td>
              <td data-label="Agent">
                <div>{r.agent}</div>
                <div className="small muted">
                  {r.org} / {r.namespace}
                </div>
              </td>
              <td className="num" data-label="Attempts">
                {r.attempt > 0 ? r.attempt : '—'}
              </td>
              <td data-label="Started">
                <TimeAgo iso={r.startedAt} />
              </td>
              <td className="num" data-label="Duration">
                {r.status === 'running' ? <span className="muted">running</span> : duration(r.durationMs)}
              </td>
              <td className="num" data-label="Turns">
                {count(r.turns)}
              </td>
              <td className="num" data-label="Cost">
                {cost(r.costUsd)}
              </td>
              <td data-label="Checkpoint" className="card-wide">
                <CheckpointCell run={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
