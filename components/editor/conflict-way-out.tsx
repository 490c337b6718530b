'use client'

import type { Block } from '@/lib/api/types'
import { Button } from '../ui/button'
import { TimeAgo } from '../ui/time-ago'
import { ContentDiff } from './content-diff'

/** Someone wrote while the operator was editing: what they changed, and the two ways on from there. */
export function ConflictWayOut({
  baseContent,
  current,
  onReapply,
  onDiscard,
}: {
  baseContent: string
  current: Block
  onReapply: (current: Block) => void
  onDiscard: (current: Block) => void
}) {
  return (
    <>
      <span className="small">
        Now v{current.version} by <span className="mono">{current.actor}</span>, <TimeAgo iso={current.updatedAt} />.
        What changed since you started:
      </span>
      <ContentDiff
        before={baseContent}
        after={current.isDeleted ? '' : current.content}
        label="Changes since you started"
      />
      <div className="row">
        <Button variant="primary" onClick={() => onReapply(current)}>
          Re-apply my edit on top of v{current.version}
        </Button>
        <Button onClick={() => onDiscard(current)}>Discard my edit and start from v{current.version}</Button>
      </div>
    </>
  )
}
