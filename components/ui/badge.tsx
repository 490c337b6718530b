import type { ReactNode } from 'react'
import { RUN_STATUSES } from '@/lib/runs-search'

type RunStatus = (typeof RUN_STATUSES)[number]

// Whole class names, so a search for a status's class finds where it is set.
const STATUS_CLASS: Record<RunStatus, string> = {
  running: 'badge badge-running',
  succeeded: 'badge badge-succeeded',
  failed: 'badge badge-failed',
  cancelled: 'badge badge-cancelled',
  unknown: 'badge badge-unknown',
}

const isStatus = (s: string): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s)

/** A run's status as a coloured pill; a status the console does not know reads as unknown. */
export function StatusBadge({ status }: { status: string }) {
  const cls = STATUS_CLASS[isStatus(status) ? status : 'unknown']
  return (
    <span className={cls} title={status === 'unknown' ? 'No run.begin row: known only from its checkpoint' : undefined}>
      {status}
    </span>
  )
}

export type TagTone = 'neutral' | 'warning' | 'bad' | 'ok' | 'accent' | 'run' | 'unknown'

// Whole class names, as for the statuses: each tone is one of the tag colourings in the global styles.
const TAG_CLASS: Record<TagTone, string> = {
  neutral: 'tag',
  warning: 'tag tag-warn',
  bad: 'tag tag-bad',
  ok: 'tag tag-ok',
  accent: 'tag tag-accent',
  run: 'tag tag-run',
  unknown: 'tag tag-unknown',
}

/** A small label beside a value; `className` adds an area's own colouring on top of the tone. */
export function Tag({
  tone = 'neutral',
  className,
  title,
  children,
}: {
  tone?: TagTone
  className?: string
  title?: string
  children: ReactNode
}) {
  return (
    <span className={className ? `${TAG_CLASS[tone]} ${className}` : TAG_CLASS[tone]} title={title}>
      {children}
    </span>
  )
}
