import Link from 'next/link'
import { cost, duration } from '@/lib/format'
import { links } from '@/lib/links'
import type { TopRun } from '@/lib/api/types'
import { statusColor } from './summary-model'
import { runKeyText } from '@/lib/loom/identity'

/** Active and idle time of a run, and its wall-clock span when idle time was subtracted from it. */
function TimeSplit({ r }: { r: TopRun }) {
  if (r.idleMs === null) {
    return r.attempt > 1 ? (
      <span className="sum-top-split" title="No write before the latest resume is stored, so the idle gap is unknown">
        {r.attempt} attempts, idle time unknown
      </span>
    ) : null
  }
  if (r.idleMs === 0) return null
  return (
    <span className="sum-top-split" title={r.idleKnown === 'partial' ? 'Idle before the latest resume only; earlier gaps are not recorded' : undefined}>
      active {duration(r.activeMs)} · idle {duration(r.idleMs)}
      {r.idleKnown === 'partial' ? '+' : ''} · {duration(r.durationMs)} wall clock
    </span>
  )
}

/** A ranked list of at most five runs, each linking to its run page. */
export function TopRuns({ title, runs, metric, empty }: {
  title: string
  runs: TopRun[]
  metric: 'duration' | 'cost'
  empty: string
}) {
  // Slowest runs rank by active time (time in process segments), never by time spent dead between a crash and a resume.
  const active = (r: TopRun) => r.activeMs ?? r.durationMs ?? 0
  const value = (r: TopRun) => (metric === 'duration' ? duration(active(r)) : cost(r.costUsd))
  const top = metric === 'duration' ? (runs[0] ? active(runs[0]) : 0) : (runs[0]?.costUsd ?? 0)
  return (
    <section className="sum-card sum-card-wide" aria-label={title}>
      <div className="sum-card-head">
        <h3>{title}</h3>
      </div>
      {runs.length === 0 ? (
        <p className="muted small sum-empty">{empty}</p>
      ) : (
        <ol className="sum-top">
          {runs.map((r) => {
            const v = metric === 'duration' ? active(r) : r.costUsd
            return (
              <li key={runKeyText(r)}>
                <span className="sum-dot" style={{ background: statusColor(r.status) }} title={r.status} aria-hidden />
                <span className="sum-top-main">
                  <Link href={links.run(r)} prefetch={false} title={`${r.goal || r.runId} (${r.status})`}>
                    {r.goal || r.runId}
                  </Link>
                  <span className="sum-top-meta">
                    {r.agent} · {r.org}/{r.namespace}
                  </span>
                  <span className="sum-top-bar" aria-hidden>
                    <span style={{ width: `${top > 0 ? Math.max(4, (v / top) * 100) : 0}%` }} />
                  </span>
                  {metric === 'duration' ? <TimeSplit r={r} /> : null}
                </span>
                <span className="sum-top-value">{value(r)}</span>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}
