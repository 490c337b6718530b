'use client'

import type { BlockDetail } from '@/lib/api/types'
import { unitsDone } from '@/lib/diff'
import { count } from '@/lib/format'
import type { RunRef } from '@/lib/loom/identity'
import { silentAttempts, silentAttemptText } from '@/lib/resume/attempts'
import { isResume } from '@/lib/resume/detect'
import type { ResumePoint, ResumeReason } from '@/lib/resume/types'
import { TimeAgo } from '../ui/time-ago'
import { Tag, type TagTone } from '../ui/badge'
import { idValue, type BlockChoice } from './block-choice'
import { VersionContent } from './version-content'
import ck from './explainer.module.css'
import { Button } from '../ui/button'

// A reason's tag: a shared tone, or (operator actions) the explainer's own colouring on a plain tag.
const REASONS: Record<ResumeReason, { label: string; title: string; tone: TagTone; cls?: string }> = {
  'run-begin': { label: 'run.begin', title: 'A run.begin with attempt > 1: the run was started again', tone: 'run' },
  'new-process': {
    label: 'new process',
    title: 'source_trace changed between consecutive versions',
    tone: 'accent',
  },
  'long-gap': {
    label: 'long gap',
    title: "A pause much longer than the run's usual checkpoint interval",
    tone: 'warning',
  },
  'operator-edit': { label: 'operator edit', title: 'A console edit', tone: 'neutral', cls: ck.reasonOperator },
  'operator-clear': {
    label: 'operator clear',
    title: 'A console clear (tombstone)',
    tone: 'neutral',
    cls: ck.reasonOperator,
  },
  'operator-restore': {
    label: 'operator restore',
    title: 'A console restore: an earlier version put back as a new one',
    tone: 'neutral',
    cls: ck.reasonOperator,
  },
}

const reasonClass = (r: ResumeReason) => (REASONS[r].cls ? `${ck.reason} ${REASONS[r].cls}` : ck.reason)

function items(n: number) {
  return `${count(n)} item${n === 1 ? '' : 's'} done`
}

/** The one sentence an operator came for: what a resume under this identity returns right now. */
function Headline({ runRef, choice, detail }: { runRef: RunRef; choice: BlockChoice; detail: BlockDetail }) {
  const call =
    choice.blockKey === 'checkpoint' ? (
      <code className={ck.call}>resume({JSON.stringify(runRef.runId)})</code>
    ) : (
      <>
        reading <code>{choice.blockKey}</code>
      </>
    )
  const who = (
    <>
      as user <code>{idValue(choice.userId)}</code> / session <code>{idValue(choice.sessionId)}</code>
    </>
  )
  const b = detail.block
  let result: React.ReactNode
  let tone: 'ok' | 'none'
  if (!b) {
    tone = 'none'
    result = (
      <>
        returns <strong>None</strong>: no {choice.blockKey === 'checkpoint' ? 'checkpoint' : 'such block'} under this
        identity
      </>
    )
  } else if (b.isDeleted) {
    tone = 'none'
    result = (
      <>
        returns <strong>None</strong> (cleared by a tombstone at v{b.version})
      </>
    )
  } else {
    tone = 'ok'
    const units = unitsDone(b.content)
    result = (
      <>
        returns <strong>v{b.version}</strong>
        {units !== null ? ` (${items(units)})` : ''}
      </>
    )
  }
  return (
    <div className={`${ck.headline} ${tone === 'ok' ? ck.headlineOk : ck.headlineNone}`}>
      <p className={ck.headlineText}>
        {call} {who} {result}.
      </p>
      {b ? (
        <p className="small muted">
          {b.isDeleted ? 'Tombstone written' : 'Written'} by <span className="mono">{b.actor}</span> from{' '}
          <span className="mono">{b.sourceTrace || '—'}</span> <TimeAgo iso={b.updatedAt} />
          {b.isDeleted ? '' : ` · ${count(b.chars)} of ${count(b.charLimit)} characters`}
        </p>
      ) : null}
    </div>
  )
}

function PointItem({
  point,
  text,
  onCompare,
}: {
  point: ResumePoint | undefined
  text: string
  onCompare: (from: string, to: string) => void
}) {
  const from = point?.fromVersion ?? point?.previous?.version ?? null
  const to = point?.firstWrite?.version ?? null
  return (
    <li className={ck.point}>
      <div className="row gap-6">
        {point?.reasons.map((r) => (
          <Tag key={r} tone={REASONS[r].tone} className={reasonClass(r)} title={REASONS[r].title}>
            {REASONS[r].label}
          </Tag>
        ))}
        {point?.missed ? (
          <Tag
            tone="warning"
            title="A newer checkpoint of this run existed under another identity, which this resume could not see"
          >
            near miss
          </Tag>
        ) : null}
        {point?.historyGap ? (
          <Tag tone="warning" title="Versions just before this write are missing (merged away)">
            history gap
          </Tag>
        ) : null}
        {point?.at ? (
          <span className="small muted">
            <TimeAgo iso={point.at} />
          </span>
        ) : null}
        <span className="spacer" />
        {from && to ? (
          <Button size="small" onClick={() => onCompare(from, to)}>
            Compare v{from} → v{to}
          </Button>
        ) : null}
      </div>
      <p className={ck.pointText}>{text}</p>
    </li>
  )
}

type Props = {
  runRef: RunRef
  choice: BlockChoice
  detail: BlockDetail
  onCompareVersions: (from: string, to: string) => void
}

/** What resume returns now, and every point in the past where a process picked the run up. */
export function ResumeExplainer({ runRef, choice, detail, onCompareVersions }: Props) {
  const { resume } = detail
  // Operator actions are listed apart: they are not resumes, and the header and diagram do not count them as such.
  const indices = resume.explanation.map((_, i) => i)
  const isOperatorAction = (i: number) => !!resume.points[i] && !isResume(resume.points[i])
  const resumed = indices.filter((i) => !isOperatorAction(i))
  const operator = indices.filter(isOperatorAction)
  // Attempts whose run.begin no write here stands for: still resumes, counted and told.
  const silent = silentAttempts(resume.attempts, resume.points)
  const resumes = resumed.length + silent.length
  return (
    <div className="stack gap-12">
      <Headline runRef={runRef} choice={choice} detail={detail} />
      {resume.value !== null ? (
        <VersionContent content={resume.value} label={`Value resume returns, v${resume.fromVersion}`} />
      ) : null}
      <section aria-labelledby="ck-points-title">
        <h3 id="ck-points-title">
          Resume points <Tag>{resumes}</Tag>
        </h3>
        {resume.attemptsText ? <p className="small">{resume.attemptsText}</p> : null}
        {resumes === 0 ? (
          <p className="small muted">
            None:{' '}
            {detail.block || resume.segments.length
              ? `no process picked the run up again${operator.length ? ' (the operator actions below are not resumes)' : ''}: one process wrote every version, with no restart, new source_trace or long pause.`
              : 'nothing was written.'}
          </p>
        ) : (
          <ol className={ck.points}>
            {resumed.map((i) => (
              <PointItem key={i} point={resume.points[i]} text={resume.explanation[i]} onCompare={onCompareVersions} />
            ))}
            {silent.map((a) => (
              <li key={`attempt-${a.attempt}`} className={ck.point} data-silent-attempt={a.attempt}>
                <div className="row gap-6">
                  <Tag tone={REASONS['run-begin'].tone} className={reasonClass('run-begin')}>
                    run.begin attempt {a.attempt}
                  </Tag>
                </div>
                <p className={ck.pointText}>
                  {silentAttemptText(a, { agent: runRef.agent, userId: choice.userId, sessionId: choice.sessionId })}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      {operator.length ? (
        <section aria-labelledby="ck-operator-title">
          <h3 id="ck-operator-title">
            Operator actions <Tag>{operator.length}</Tag>
          </h3>
          <p className="small muted">
            Writes from this console: not resumes, though a process that resumes after one reads what it left.
          </p>
          <ol className={ck.points}>
            {operator.map((i) => (
              <PointItem key={i} point={resume.points[i]} text={resume.explanation[i]} onCompare={onCompareVersions} />
            ))}
          </ol>
        </section>
      ) : null}
      {resume.source === 'physical' && (detail.history?.length ?? 0) === 0 && detail.versions.length > 0 ? (
        <p className="small muted">
          Found from the physical rows only: versions merged away before they could be captured are not part of this
          account.
        </p>
      ) : null}
    </div>
  )
}
