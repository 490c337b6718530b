import Link from 'next/link'
import type { CSSProperties } from 'react'
import { cost, duration } from '@/lib/format'
import { links } from '@/lib/links'
import type { TopRun } from '@/lib/api/types'
import { statusColor } from './summary-model'
import { runKeyText } from '@/lib/loom/identity'
import { dotColor } from './dot-color'
import styles from './runs-summary.module.css'

/** Active and idle time of a run, and its wall-clock span when idle time was subtracted from it. */
function TimeSplit({ r }: { r: TopRun }) {
  if (r.idleMs === null) {
    return r.attempt > 1 ? (
      <span
        className={styles.topSplit}
        data-testid="top-split"
        title="No write before the latest resume is stored, so the idle gap is unknown"
      >
        {r.attempt} attempts, idle time unknown
      </span>
    ) : null
  }
  if (r.idleMs === 0) return null
  return (
    <span
      className={styles.topSplit}
      data-testid="top-split"
      title={
        r.idleKnown === 'partial' ? 'Idle before the latest resume only; earlier gaps are not recorded' : undefined
      }
    >
      active {duration(r.activeMs)} · idle {duration(r.idleMs)}
      {r.idleKnown === 'partial' ? '+' : ''} · {duration(r.durationMs)} wall clock
    </span>
  )
}

/** A ranked list of at most five runs, each linking to its run page. */
export function TopRuns({
  title,
  runs,
  metric,
  empty,
}: {
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
    <section className={`${styles.card} ${styles.cardWide}`} aria-label={title}>
      <div className={styles.cardHead}>
        <h3>{title}</h3>
      </div>
      {runs.length === 0 ? (
        <p className={`muted small ${styles.empty}`}>{empty}</p>
      ) : (
        <ol className={styles.top}>
          {runs.map((r) => {
            const v = metric === 'duration' ? active(r) : r.costUsd
            return (
              <li key={runKeyText(r)}>
                <span className={styles.dot} style={dotColor(statusColor(r.status))} title={r.status} aria-hidden />
                <span className={styles.topMain}>
                  <Link href={links.run(r)} prefetch={false} title={`${r.goal || r.runId} (${r.status})`}>
                    {r.goal || r.runId}
                  </Link>
                  <span className={styles.topMeta}>
                    {r.agent} · {r.org}/{r.namespace}
                  </span>
                  <span className={styles.topBar} aria-hidden>
                    <span style={{ '--share': `${top > 0 ? Math.max(4, (v / top) * 100) : 0}%` } as CSSProperties} />
                  </span>
                  {metric === 'duration' ? <TimeSplit r={r} /> : null}
                </span>
                <span className={styles.topValue} data-testid="top-value">
                  {value(r)}
                </span>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}
