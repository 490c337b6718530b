'use client'

import Link from 'next/link'
import type { ReactNode } from 'react'
import { links } from '@/lib/links'
import type { BatchItem, BatchResultItem } from '@/lib/batch/types'
import styles from './batch.module.css'

const v = (x: string | null | undefined) => (x ? `v${x}` : '—')

// Whole class names per action and outcome, so each one's users can be found.
export const BATCH_STATE_CLASS: Record<BatchItem['action'] | BatchResultItem['outcome'], string> = {
  clear: styles.write,
  restore: styles.write,
  skip: styles.skip,
  done: styles.done,
  conflict: styles.conflict,
  skipped: styles.skipped,
  error: styles.error,
}

/**
 * One row per run: the run (linked), its block, the versions, and what happened to it with why. The
 * preview and the results differ only in the versions column and the state they name.
 */
function BatchTable<T extends BatchItem>({
  label,
  caption,
  versionsHead,
  stateHead,
  items,
  versions,
  state,
  note,
}: {
  label: string
  caption: string
  versionsHead: string
  stateHead: string
  items: T[]
  versions: (item: T) => ReactNode
  state: (item: T) => keyof typeof BATCH_STATE_CLASS
  note: (item: T) => string | null | undefined
}) {
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label={label}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col" className={styles.colBlock}>
              Block
            </th>
            <th scope="col">{versionsHead}</th>
            <th scope="col">{stateHead}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => {
            const identity = i.userId || i.sessionId ? `${i.userId || '∅'} · ${i.sessionId || '∅'}` : null
            const why = note(i)
            return (
              <tr key={`${i.org}\u0000${i.namespace}\u0000${i.agent}\u0000${i.runId}`}>
                <td className={styles.run}>
                  <Link prefetch={false} href={links.run(i)}>{i.runId}</Link>
                  <span className={styles.why}>
                    {i.org}/{i.namespace}/{i.agent}
                  </span>
                </td>
                <td className={styles.colBlock}>
                  <span className="mono">{i.blockKey}</span>
                  {identity ? <span className={styles.why}>{identity}</span> : null}
                </td>
                <td className={styles.versions}>{versions(i)}</td>
                <td>
                  <span className={`${styles.tag} ${BATCH_STATE_CLASS[state(i)]}`}>{state(i)}</span>
                  {why ? <span className={styles.why}>{why}</span> : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** What the dry run found for each run: its block, the version it moves from and to, and why any is skipped. */
export function PreviewTable({ items, caption }: { items: BatchItem[]; caption: string }) {
  return (
    <BatchTable
      label="Preview of the batch"
      caption={caption}
      versionsHead="From → to"
      stateHead="Action"
      items={items}
      versions={(i) => `${v(i.fromVersion)} → ${i.action === 'clear' ? 'tombstone' : v(i.toVersion)}`}
      state={(i) => i.action}
      note={(i) => i.why}
    />
  )
}

/** What the real run did to each run: written (with the new version), a conflict, skipped, or an error. */
export function ResultsTable({ items }: { items: BatchResultItem[] }) {
  return (
    <BatchTable
      label="Results of the batch"
      caption="One row per run; each link opens the run."
      versionsHead="Version"
      stateHead="Outcome"
      items={items}
      versions={(i) =>
        i.outcome === 'done'
          ? `${v(i.fromVersion)} → ${v(i.newVersion)}`
          : i.outcome === 'conflict'
            ? `${v(i.fromVersion)}, now ${v(i.currentVersion)}`
            : v(i.fromVersion)
      }
      state={(i) => i.outcome}
      note={(i) => i.message}
    />
  )
}
