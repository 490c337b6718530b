'use client'

import { useLinkStatus } from 'next/link'
import styles from './link-pending.module.css'

/**
 * Inside a `<Link>`: while the page it opens is on its way from the server, a bar runs under
 * the link and screen readers hear `label`. Pages read their first data on the server, so a
 * click can take a moment before anything else changes.
 */
export function LinkPending({ label }: { label: string }) {
  const { pending } = useLinkStatus()
  if (!pending) return null
  return (
    <span className={styles.bar} role="status">
      <span className="sr-only">{label}</span>
    </span>
  )
}
