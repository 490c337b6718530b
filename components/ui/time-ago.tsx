'use client'

import { absoluteTime, relativeTime } from '@/lib/format'
import { useNow } from './use-now'

/** Relative time that stays current; the absolute UTC time is in the tooltip. */
export function TimeAgo({ iso }: { iso: string | null | undefined }) {
  const now = useNow()
  if (!iso) return <span>—</span>
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {now === null ? absoluteTime(iso) : relativeTime(iso, now)}
    </time>
  )
}
