import Link from 'next/link'
import { LinkPending } from '../ui/link-pending'
import type { RunSummary } from '@/lib/api/types'
import { cost, count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import { CharMeter } from '../ui/checkpoint-meter'
import { StatusBadge } from '../ui/badge'
import { TimeAgo } from '../ui/time-ago'
import { FlagBadges } from './flag-badges'
import { runKeyText } from '@/lib/loom/identity'

function CheckpointCell({ run }: { run: RunSummary }) {
  const cp = run.checkpoint
  if (!cp) return <span className="muted small">none</span>
  return (
    <div className="stack gap-3">
      <span className="row gap-6">
        <span className="mono">v{cp.version}</span>
        {cp.isDeleted ? <span className="tag">cleared</span> : null}
        <span className="small muted">
          <TimeAgo iso={cp.updatedAt} />
        </span>
      </span>
      {cp.isDeleted ? null : <CharMeter chars={cp.chars} limit={cp.charLimit} />}
    </div>
  )
}

export function RunsTable({ runs, rowClassName }: { runs: RunSummary[]; rowClassName?: (run: RunSummary) => string | undefined }) {
  return (
    <div className="table-wrap">
      <table className="data" aria-label="Runs">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Goal / run</th>
            <th scope="col">Agent</th>
            <th scope="col" className="num" title="run.begin calls: each resume adds one">
              Attempts
            </th>
            <th scope="col">Started</th>
            <th scope="col" className="num">Duration</th>
            <th scope="col" className="num">Turns</th>
            <th scope="col" className="num">Cost</th>
            <th scope="col">Checkpoint</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={runKeyText(r)} data-run-id={r.runId} className={rowClassName?.(r)}>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>
                <Link href={links.run(r)} prefetch={false} className="goal" title={r.goal || r.runId}>
                  {r.goal || <em className="muted">no goal recorded</em>}
                  <LinkPending label={`Opening run ${r.runId}`} />
                </Link>
                <span className="runid">{r.runId}</span>
                <FlagBadges flags={r.flags} />
              </td>
              <td>
                <div>{r.agent}</div>
                <div className="small muted">
                  {r.org} / {r.namespace}
                </div>
              </td>
              <td className="num">{r.attempt > 0 ? r.attempt : '—'}</td>
              <td>
                <TimeAgo iso={r.startedAt} />
              </td>
              <td className="num">{r.status === 'running' ? <span className="muted">running</span> : duration(r.durationMs)}</td>
              <td className="num">{count(r.turns)}</td>
              <td className="num">{cost(r.costUsd)}</td>
              <td>
                <CheckpointCell run={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
