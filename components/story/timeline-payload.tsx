'use client'

import Link from 'next/link'
import type { Ref } from 'react'
import { absoluteTime } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import type { TimelineEvent } from '@/lib/api/types'
import { prettyContent } from '../ui/content-view'
import { TimeAgo } from '../ui/time-ago'
import { Tag } from '../ui/badge'
import { KindLabel } from './timeline-list'
import { detailLimit } from '@/lib/api/timeline-kinds'
import { Button } from '../ui/button'
import styles from './timeline.module.css'

/** Where an event's `ref` leads: the tab that shows the thing it points at. */
function refLink(run: RunRef, e: TimelineEvent): { href: string; text: string } | null {
  if (!e.ref) return null
  switch (e.kind) {
    case 'memory.write':
      return { href: links.run(run, { tab: 'memories', memory: e.ref }), text: 'Open in Memories' }
    case 'search':
      return { href: links.run(run, { tab: 'searches' }), text: 'Open in Searches' }
    case 'blob':
      return { href: links.run(run, { tab: 'blobs' }), text: 'Open in Blobs' }
    case 'turn':
      return { href: links.run(run, { tab: 'conversation' }), text: 'Open in Conversation' }
    default:
      return null
  }
}

const REF_MEANING: Partial<Record<TimelineEvent['kind'], string>> = {
  checkpoint: 'source_trace',
  'checkpoint.cleared': 'source_trace',
  block: 'source_trace',
  operator: 'action',
  turn: 'conversation#turn',
  'memory.write': 'memory_key',
  search: 'search_id',
  blob: 'blob_key',
}

type Props = {
  runRef: RunRef
  event: TimelineEvent
  resumeTag?: string
  position: { index: number; total: number } | null
  onClose: () => void
  headingRef?: Ref<HTMLHeadingElement>
}

/** The selected event's payload, beside the list. */
export function TimelinePayload({ runRef, event: e, resumeTag, position, onClose, headingRef }: Props) {
  const detail = e.detail ? prettyContent(e.detail) : null
  const link = refLink(runRef, e)
  return (
    <aside className={`panel ${styles.payload}`} aria-labelledby="timeline-payload-title" data-event-id={e.id}>
      <div className={`row ${styles.payloadTop}`}>
        <KindLabel kind={e.kind} />
        {resumeTag ? <Tag className={styles.resumeTag}>{resumeTag}</Tag> : null}
        <span className="spacer" />
        {position ? (
          <span className="small muted">
            {(position.index + 1).toLocaleString('en')} of {position.total.toLocaleString('en')}
          </span>
        ) : null}
        <Button variant="ghost" size="small" onClick={onClose} aria-label="Close event payload">
          ✕
        </Button>
      </div>
      <h3 id="timeline-payload-title" ref={headingRef} tabIndex={-1} className={styles.payloadTitle}>
        {e.label}
      </h3>
      <dl className={styles.fields}>
        <dt>time</dt>
        <dd>
          {absoluteTime(e.at)} · <TimeAgo iso={e.at} />
        </dd>
        {e.version ? (
          <>
            <dt>version</dt>
            <dd className="mono">v{e.version}</dd>
          </>
        ) : null}
        {e.blockKey ? (
          <>
            <dt>block</dt>
            <dd className="mono">{e.blockKey}</dd>
          </>
        ) : null}
        {e.actor ? (
          <>
            <dt>actor</dt>
            <dd className="mono">{e.actor}</dd>
          </>
        ) : null}
        {e.userId || e.sessionId ? (
          <>
            <dt>user / session</dt>
            <dd className="mono">
              {e.userId || '∅'} / {e.sessionId || '∅'}
            </dd>
          </>
        ) : null}
        {e.ref ? (
          <>
            <dt>{REF_MEANING[e.kind] ?? 'ref'}</dt>
            <dd className="mono">
              {e.ref}
              {link ? (
                <>
                  {' '}
                  <Link prefetch={false} href={link.href} className="small">
                    {link.text} →
                  </Link>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      <div>
        <div className="small muted">detail{detail?.isJson ? ' (JSON, pretty-printed)' : ''}</div>
        {detail ? (
          <pre className={`content ${styles.detail}`} aria-label="Event detail">
            {detail.text}
          </pre>
        ) : (
          <p className="muted small">No payload for this event.</p>
        )}
        {[...e.detail].length >= detailLimit(e.kind) ? (
          <p className="small muted">
            Cut to the first {detailLimit(e.kind).toLocaleString('en')} characters: the tab this event belongs to shows
            all of it.
          </p>
        ) : null}
      </div>
    </aside>
  )
}
