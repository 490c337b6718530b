'use client'

import Link from 'next/link'
import { useState } from 'react'
import type { BlockDetail, NearMiss } from '@/lib/api/types'
import { absoluteTime, count, percent } from '@/lib/format'
import type { RunRef } from '@/lib/loom/identity'
import { missedPhrase } from '@/lib/resume/explain'
import { formatUtc } from '@/lib/resume/time'
import { links } from '@/lib/links'
import { bannerClass } from '../ui/banner'
import { CharMeter } from '../ui/checkpoint-meter'
import { TimeAgo } from '../ui/time-ago'
import { idValue, type BlockChoice } from './block-choice'
import type { VersionEntry } from './version-rows'
import ck from './checkpoint.module.css'
import { Button, buttonClass } from '../ui/button'
import { CopyDialog } from '../editor/copy-dialog'
import { usePermissions } from '../editor/use-permissions'

type Props = {
  runRef: RunRef
  choice: BlockChoice
  detail: BlockDetail
  entries: VersionEntry[]
  onSelect: (choice: BlockChoice) => void
  onCompare: (a: string | null, b: string | null) => void
}

/** The parts of identity b that differ from a, e.g. "session s1" or "agent x, user u-1". */
function differing(
  a: { agent: string; userId: string; sessionId: string },
  b: { agent: string; userId: string; sessionId: string },
): string {
  const parts: string[] = []
  if (a.agent !== b.agent) parts.push(`agent ${b.agent}`)
  if (a.userId !== b.userId) parts.push(`user ${idValue(b.userId)}`)
  if (a.sessionId !== b.sessionId) parts.push(`session ${idValue(b.sessionId)}`)
  return parts.join(', ') || 'the same identity'
}

function sameIdentity(
  a: { agent: string; userId: string; sessionId: string },
  b: { agent: string; userId: string; sessionId: string },
) {
  return a.agent === b.agent && a.userId === b.userId && a.sessionId === b.sessionId
}

function NearMissLine({ miss, props }: { miss: NearMiss; props: Props }) {
  const { runRef, choice, detail, onSelect } = props
  const { canWrite } = usePermissions()
  const [copying, setCopying] = useState(false)
  const here = { agent: runRef.agent, userId: choice.userId, sessionId: choice.sessionId }
  const what = choice.blockKey === 'checkpoint' ? 'checkpoint' : `${choice.blockKey} block`
  const there = differing(here, miss)
  const self = differing(miss, here)
  const target = { blockKey: miss.blockKey, userId: miss.userId, sessionId: miss.sessionId }
  // What happened: the resume of this identity that the other identity's checkpoint was newer than.
  const point = detail.resume.points.findLast((p) => p.missed && sameIdentity(p.missed, miss))
  // What is true now, said as now.
  const today = !detail.block
    ? `Today ${self} has no ${what}, so a resume as ${self} returns None`
    : detail.block.isDeleted
      ? `Today ${self}'s ${what} is cleared (v${detail.block.version} is a tombstone), so a resume as ${self} returns None`
      : `Today ${self} is at v${detail.block.version}`
  const latest = miss.isDeleted ? `a tombstone (v${miss.version})` : `v${miss.version}`
  const canCopy =
    canWrite && !!detail.block && !miss.isDeleted && miss.agent === runRef.agent && miss.blockKey === choice.blockKey
  return (
    <li>
      <span>
        {point?.missed ? (
          <>
            The process that resumed as <strong>{self}</strong> at {formatUtc(point.at)} started from{' '}
            {point.fromVersion ? `v${point.fromVersion}` : 'nothing'}, though {missedPhrase(point.missed, here)}.{' '}
          </>
        ) : (
          <>
            <strong>{there}</strong> has {miss.isDeleted ? `a cleared ${what} (tombstone)` : `a ${what}`} that a resume
            as <strong>{self}</strong> does not see.{' '}
          </>
        )}
        {today}; {there}&apos;s latest is {latest}, <TimeAgo iso={miss.updatedAt} />.
        {miss.isDeleted ? null : (
          <>
            {' '}
            <span className="muted">
              Next step: to continue from v{miss.version} rather than start over, resume the agent as {there}
              {canCopy ? `, or copy v${miss.version} into ${self} (an audited write)` : ''}.
            </span>
          </>
        )}
      </span>
      {miss.agent === runRef.agent ? (
        <Button onClick={() => onSelect(target)}>Show {there}</Button>
      ) : (
        <Link
          prefetch={false}
          className={buttonClass()}
          href={links.run(
            { ...runRef, agent: miss.agent },
            { tab: 'checkpoint', block: miss.blockKey, user: miss.userId, session: miss.sessionId },
          )}
        >
          Open {there}
        </Link>
      )}
      {canCopy ? <Button onClick={() => setCopying(true)}>Copy v{miss.version} here…</Button> : null}
      {copying && detail.block ? (
        <CopyDialog
          target={{ run: runRef, ...choice }}
          current={detail.block}
          from={{ ...target, version: miss.version, under: there }}
          here={self}
          onClose={() => setCopying(false)}
        />
      ) : null}
    </li>
  )
}

const SHOWN_MISSES = 3

/** What an operator must not miss: near misses, version ties, size against char_limit, blobs. */
export function CheckpointFlags(props: Props) {
  const { detail, entries, onCompare } = props
  const { flags, block } = detail
  const misses = flags.nearMisses
  return (
    <div className={`stack ${ck.flags}`} aria-label="Flags">
      {misses.length > 0 ? (
        <div className={`banner banner-warn ${ck.flag}`} role="alert" aria-label="Near miss">
          <span className={ck.flagIcon} aria-hidden>
            !
          </span>
          <div className="stack gap-6">
            <strong>
              Near miss: the same run_id has state under another identity, which this resume does not see.
            </strong>
            <ul className={ck.flagList}>
              {misses.slice(0, SHOWN_MISSES).map((m) => (
                <NearMissLine key={`${m.agent}\u0000${m.userId}\u0000${m.sessionId}`} miss={m} props={props} />
              ))}
            </ul>
            {misses.length > SHOWN_MISSES ? (
              <details>
                <summary>{misses.length - SHOWN_MISSES} more</summary>
                <ul className={ck.flagList}>
                  {misses.slice(SHOWN_MISSES).map((m) => (
                    <NearMissLine key={`${m.agent}\u0000${m.userId}\u0000${m.sessionId}`} miss={m} props={props} />
                  ))}
                </ul>
              </details>
            ) : null}
          </div>
        </div>
      ) : null}

      {flags.ties.map((v) => {
        const tied = entries.filter((e) => e.block.version === v)
        return (
          <div key={v} className={`banner banner-error ${ck.flag}`} role="alert" aria-label={`Version tie at v${v}`}>
            <span className={ck.flagIcon} aria-hidden>
              !
            </span>
            <span>
              <strong>
                {tied.length > 2 ? `${tied.length} rows` : 'Two rows'} share version {v}
              </strong>
              ; ClickHouse keeps the last inserted, which may not be the intended writer.
              {tied.length
                ? ` Writers: ${tied.map((e) => `${e.block.actor} from ${e.block.sourceTrace || '—'}`).join(' and ')}.`
                : ''}
            </span>
            {tied.length >= 2 ? (
              <Button onClick={() => onCompare(tied[tied.length - 1].id, tied[0].id)}>Compare the tied rows</Button>
            ) : null}
          </div>
        )
      })}

      {flags.nearLimit && block ? (
        <div className={`banner banner-warn ${ck.flag}`} role="note" aria-label="Near char_limit">
          <span className={ck.flagIcon} aria-hidden>
            !
          </span>
          <span>
            <strong>
              Near char_limit: {count(block.chars)} of {count(block.charLimit)} characters (
              {percent(block.chars, block.charLimit)}%).
            </strong>{' '}
            A write over the limit is refused, so the next, larger checkpoint may fail.
          </span>
          <CharMeter chars={block.chars} limit={block.charLimit} />
        </div>
      ) : null}

      {flags.blob && flags.blob.state !== 'live' ? (
        <div
          className={bannerClass(flags.blob.state === 'missing' ? 'error' : 'warning', ck.flag)}
          role="alert"
          aria-label="Blob flag"
        >
          <span className={ck.flagIcon} aria-hidden>
            !
          </span>
          <span>
            {flags.blob.state === 'expired' ? (
              <>
                <strong>
                  The checkpoint points at blob <code>{flags.blob.blobKey}</code>, which expired{' '}
                  {flags.blob.expiresAt ? <TimeAgo iso={flags.blob.expiresAt} /> : null}.
                </strong>{' '}
                A resume gets a blob_key whose content is gone.
              </>
            ) : (
              <>
                <strong>
                  The checkpoint points at blob <code>{flags.blob.blobKey}</code>, which is not in context_blobs.
                </strong>{' '}
                It expired and was removed by its TTL, or was never written: a resume gets a blob_key that leads
                nowhere.
              </>
            )}
          </span>
        </div>
      ) : null}
      {flags.blob?.state === 'live' ? (
        <p className="small muted flush">
          State offloaded to blob <code>{flags.blob.blobKey}</code>
          {flags.blob.expiresAt ? (
            <>
              , kept until <span title={absoluteTime(flags.blob.expiresAt)}>{absoluteTime(flags.blob.expiresAt)}</span>
            </>
          ) : null}
          .
        </p>
      ) : null}
    </div>
  )
}
