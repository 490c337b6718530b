import Link from 'next/link'
import type { ReactNode } from 'react'
import styles from './triage.module.css'

/** A count in the runs summary: a link to the list of the runs it counts. */
export function CountLink({ href, title, children }: { href: string; title?: string; children: ReactNode }) {
  return (
    <Link href={href} prefetch={false} className={styles.countLink} title={title}>
      {children}
    </Link>
  )
}
