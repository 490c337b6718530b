import Link from 'next/link'
import { cost, duration } from '@/lib/format'
import { links } from '@/lib/links'
import type { TopRun } from '@/lib/queries/analytics'
import { statusColor } from './summary-model'

/** A ranked list of at most five runs, each linking to its run page. */
export function TopRuns({ title, runs, metric, empty }: {
  title: string
  runs: TopRun[]
  metric: 'duration' | 'cost'
  empty: string
}) {
  const value = (r: TopRun) => (metric === 'duration' ? duration(r.durationMs) : cost(r.costUsd))
  const top = metric === 'duration' ? (runs[0]?.durationMs ?? 0) : (runs[0]?.costUsd ?? 0)
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
            const v = metric === 'duration' ? (r.durationMs ?? 0) : r.costUsd
            return (
              <li key={JSON.stringify([r.org, r.namespace, r.agent, r.runId])}>
                <span className="sum-dot" style={{ background: statusColor(r.status) }} title={r.status} aria-hidden />
                <span className="sum-top-main">
                  <Link href={links.run(r)} title={`${r.goal || r.runId} (${r.status})`}>
                    {r.goal || r.runId}
                  </Link>
                  <span className="sum-top-meta">
                    {r.agent} · {r.org}/{r.namespace}
                  </span>
                  <span className="sum-top-bar" aria-hidden>
                    <span style={{ width: `${top > 0 ? Math.max(4, (v / top) * 100) : 0}%` }} />
                  </span>
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
