'use client'

import { useState } from 'react'
import { count } from '@/lib/format'
import { Button } from './button'

/**
 * How many of `total` items a long list shows: `step` at first and `step` more on each request,
 * never fewer than reach the item at `mustShow` (a deep link's target). Keeps a run with
 * thousands of searches or memories from building hundreds of thousands of elements at once.
 */
export function useShownCount(total: number, step: number, mustShow = -1) {
  const [asked, setAsked] = useState(step)
  const shown = Math.min(total, Math.max(asked, mustShow + 1))
  return { shown, showMore: () => setAsked(shown + step) }
}

/** Below a list cut by useShownCount: how much of it shows, and a button for the next part. */
export function ShowMore({
  shown,
  total,
  step,
  noun,
  onMore,
}: {
  shown: number
  total: number
  step: number
  noun: string
  onMore: () => void
}) {
  if (shown >= total) return null
  return (
    <div className="row small muted">
      <span role="status">
        Showing {count(shown)} of {count(total)} {noun}.
      </span>
      <Button size="small" onClick={onMore}>
        Show {count(Math.min(step, total - shown))} more
      </Button>
    </div>
  )
}
