'use client'

import { useQuery } from '@tanstack/react-query'
import dynamic from 'next/dynamic'
import Link from 'next/link'
import type { ReactNode } from 'react'
import { compareQueryOptions } from '@/lib/api-client/compare'
import type { CompareResponse, CompareSide } from '@/lib/api/types'
import { absoluteTime, cost, count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import { ContentDiff } from '../editor/content-diff'
import { FlagBadges } from '../runs/flag-badges'
import { StatusBadge } from '../ui/badge'
import { QueryState } from '../ui/query-state'
import { Skeleton } from '../ui/skeleton'
import styles from './compare.module.css'

// The chart library loads beside the page's first scripts, not in them.
const GrowthChart = dynamic(() => import('./growth-chart').then((m) => m.GrowthChart), {
  ssr: false,
  loading: () => <Skeleton height={180} />,
})

const minutes = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : duration(ms))

/** When a resume happened, as time since the run started. */
const since = (side: CompareSide, iso: string) =>
  `+${minutes(Math.max(0, Date.parse(iso) - Date.parse(side.run.startedAt)))}`

function Facts({ a, b }: { a: CompareSide; b: CompareSide | null }) {
  const rows: [string, (s: CompareSide) => ReactNode][] = [
    ['Status', (s) => <StatusBadge status={s.run.status} />],
    ['Flags', (s) => (s.run.flags.length ? <FlagBadges flags={s.run.flags} /> : <span className="muted">none</span>)],
    ['Attempts', (s) => count(s.run.attempt)],
    ['Started', (s) => absoluteTime(s.run.startedAt)],
    ['Duration', (s) => duration(s.run.durationMs)],
    ['Cost', (s) => cost(s.run.costUsd)],
    ['Tokens in / out', (s) => `${count(s.counts.inputTokens)} / ${count(s.counts.outputTokens)}`],
    ['Turns', (s) => count(s.run.turns)],
    ['Model', (s) => s.model || '—'],
    ['Checkpoint versions', (s) => count(s.checkpoints.length)],
    ['Resumes', (s) => count(s.resumes.length)],
    [
      'Checkpoint now',
      (s) =>
        s.current
          ? `v${s.current.version}${s.current.isDeleted ? ' (cleared)' : `, ${count(s.current.chars)} of ${count(s.current.charLimit)} chars`}`
          : 'none',
    ],
  ]
  return (
    <div className={styles.scroll}>
      <table className={styles.facts} aria-label="The two runs side by side">
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Figure</span>
            </th>
            <th scope="col">A: this run</th>
            <th scope="col">B: {b ? 'compared with' : 'none'}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, cell]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{cell(a)}</td>
              <td>{b ? cell(b) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function RunTitle({ side, letter }: { side: CompareSide; letter: 'A' | 'B' }) {
  const r = side.run
  return (
    <div className={styles.side}>
      <span className={styles.letter} aria-hidden>
        {letter}
      </span>
      <div>
        <Link prefetch={false} href={links.run(r)} className={styles.goal}>
          {r.goal || r.runId}
        </Link>
        <div className="small muted mono">
          {r.org}/{r.namespace}/{r.agent} · {r.runId}
        </div>
      </div>
    </div>
  )
}

function Resumes({ side, letter }: { side: CompareSide; letter: 'A' | 'B' }) {
  return (
    <section aria-label={`Resume points of ${letter}`}>
      <h3 className="small">{letter}: resume points</h3>
      {side.resumes.length === 0 ? (
        <p className="small muted">None: the run was not picked up again.</p>
      ) : (
        <ol className={`small ${styles.resumes}`}>
          {side.resumes.map((p) => (
            <li key={`${p.at}-${p.fromVersion}`}>
              {since(side, p.at)}:{' '}
              {p.fromVersion ? `resumed from v${p.fromVersion}` : 'resumed with no checkpoint (started over)'}
              {p.unitsDone !== null ? `, ${count(p.unitsDone)} unit${p.unitsDone === 1 ? '' : 's'} done` : ''}
              {p.attempt ? ` (attempt ${p.attempt})` : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function Comparison({ data }: { data: CompareResponse }) {
  const { a, b } = data
  return (
    <div className="stack">
      <section className="panel stack" aria-label="Runs compared">
        <div className={styles.sides}>
          <RunTitle side={a} letter="A" />
          {b ? <RunTitle side={b} letter="B" /> : null}
        </div>
        {!b ? (
          <p className="banner banner-info" role="note">
            Nothing to compare with: {data.why ?? 'no other run was named'}.
          </p>
        ) : null}
        <Facts a={a} b={b} />
      </section>
      <section className="panel stack" aria-labelledby="growth-title">
        <h2 id="growth-title">Checkpoint growth</h2>
        <p className="small muted flush">
          Characters in each checkpoint version, by time since the run started; resumes are marked on each line.
        </p>
        <GrowthChart a={a} b={b} />
      </section>
      <section className="panel stack" aria-label="Resume points">
        <div className={styles.sides}>
          <Resumes side={a} letter="A" />
          {b ? <Resumes side={b} letter="B" /> : null}
        </div>
      </section>
      {b ? (
        <section className="panel stack" aria-labelledby="diff-title">
          <h2 id="diff-title">Checkpoints now: B → A</h2>
          {a.current && b.current ? (
            <ContentDiff
              before={b.current.content}
              after={a.current.content}
              label="Diff of the two runs' checkpoints"
            />
          ) : (
            <p className="small muted">
              {!a.current && !b.current
                ? 'Neither run has a checkpoint.'
                : `${a.current ? 'B' : 'A'} has no checkpoint.`}
            </p>
          )}
        </section>
      ) : null}
    </div>
  )
}

/** Two runs side by side: figures, checkpoint growth, resume points and the diff of their checkpoints. */
export function CompareView({ a, b }: { a: string; b: string | null }) {
  const query = useQuery({ ...compareQueryOptions(a, b), enabled: a !== '' })
  return (
    <div className="stack">
      <div>
        <h1>Compare runs</h1>
        <p className="muted small flush">
          {b
            ? 'Run A beside run B.'
            : "Run A beside its agent's last succeeded run that started before it: what is different from the last time it worked?"}
        </p>
      </div>
      {a === '' ? (
        <p className="banner banner-info" role="note">
          Open a run and choose <strong>Compare</strong>, or give <code>?a=org/namespace/agent/runId</code> (and
          optionally <code>&amp;b=</code>).
        </p>
      ) : (
        <QueryState query={query} pending={<Skeleton height={240} />}>
          {(data) => <Comparison data={data} />}
        </QueryState>
      )}
    </div>
  )
}
