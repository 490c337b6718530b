import Link from 'next/link'
import type { ReactNode } from 'react'
import type { RunDetail } from '@/lib/api/types'
import { absoluteTime, cost, count, duration } from '@/lib/format'
import { links } from '@/lib/links'
import { StatusBadge } from '../ui/badge'
import { buttonClass } from '../ui/button'
import { TimeAgo } from '../ui/time-ago'
import { Stat } from '../ui/stat'
import { ReflectionView } from './reflection-view'
import { CopyIncident } from './copy-incident'

export function RunHeader({ detail, actions }: { detail: RunDetail; actions?: ReactNode }) {
  const { run } = detail
  return (
    <section className="panel stack run-head" aria-label="Run summary">
      <div className="row">
        <div className="crumbs">
          <Link prefetch={false} href={links.runs(new URLSearchParams({ org: run.org }).toString())}>
            {run.org}
          </Link>
          /
          <Link
            prefetch={false}
            href={links.runs(new URLSearchParams({ org: run.org, namespace: run.namespace }).toString())}
          >
            {run.namespace}
          </Link>
          /
          <Link
            prefetch={false}
            href={links.runs(
              new URLSearchParams({ org: run.org, namespace: run.namespace, agent: run.agent }).toString(),
            )}
          >
            {run.agent}
          </Link>
        </div>
        <span className="spacer" />
        <Link
          prefetch={false}
          className={buttonClass('default', 'small')}
          href={links.compare(run)}
          title="Side by side with this agent's last succeeded run that started before it"
        >
          Compare
        </Link>
      </div>
      <div className="row">
        <h1 className="run-head-title">{run.goal || <span className="muted">No goal recorded</span>}</h1>
        <StatusBadge status={run.status} />
        <span className="spacer" />
        {actions}
      </div>
      <div className="row">
        <div className="runid">run_id: {run.runId}</div>
        <CopyIncident run={run} />
      </div>
      {!run.hasRunRow ? (
        <div className="banner banner-info" role="note">
          This run never called <code>run.begin</code>: it is known only from its working-memory blocks, so its status,
          goal, attempts and cost are unknown.
        </div>
      ) : null}
      <dl className="kv run-figures">
        <Stat term="Attempts (resumes)">
          {run.attempt || '—'}
          {run.attempt > 1 ? <span className="small muted"> · resumed {run.attempt - 1}×</span> : null}
        </Stat>
        <Stat term="Started" title={absoluteTime(run.startedAt)}>
          <TimeAgo iso={run.startedAt} />
        </Stat>
        <Stat term="Last begin">
          <TimeAgo iso={run.lastBeginAt} />
        </Stat>
        <Stat term="Completed">
          <TimeAgo iso={run.completedAt} />
        </Stat>
        <Stat term="Duration">{duration(run.durationMs)}</Stat>
        <Stat term="Turns">
          {/* Two sources that need not agree: the counter the agent reports, and the transcripts bound to the run_id. */}
          <span title="loom.runs.turns: the turn counter the agent reported with its run">
            {run.hasRunRow ? `${count(run.turns)} counted by the run` : '—'}
          </span>
          <br />
          <span className="small muted">
            {detail.counts.turns === 0 ? 'no transcript bound' : `${count(detail.counts.turns)} in bound transcripts`}
          </span>
        </Stat>
        <Stat term="Tokens in / out">
          {count(detail.inputTokens)} / {count(detail.outputTokens)}
        </Stat>
        <Stat term="Cost">{cost(run.costUsd)}</Stat>
        <Stat term="Model">{detail.model || '—'}</Stat>
        <Stat term="User / session" className="mono">
          {run.userId || '∅'} / {run.sessionId || '∅'}
        </Stat>
      </dl>
      {run.outcome ? (
        <div className="run-head-note">
          <h3>Outcome</h3>
          <p className="flush">{run.outcome}</p>
        </div>
      ) : null}
      {run.reflection ? (
        <div className="run-head-note">
          <h3>Reflection</h3>
          <ReflectionView text={run.reflection} />
        </div>
      ) : null}
      {detail.memoriesUsed.length > 0 ? (
        <div className="run-head-note">
          <h3>Memories used ({detail.memoriesUsed.length})</h3>
          <div className="row gap-6">
            {detail.memoriesUsed.map((k) => (
              <Link prefetch={false} key={k} className="tag mono" href={links.run(run, { tab: 'memories', memory: k })}>
                {k}
              </Link>
            ))}
          </div>
        </div>
      ) : null}
    </section>
  )
}
