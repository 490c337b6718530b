'use client'

import Link from 'next/link'
import { links } from '@/lib/links'
import type { BatchItem, BatchResultItem } from '@/lib/batch/types'
import styles from './batch.module.css'

function RunCell({ item }: { item: BatchItem }) {
  return (
    <td className={styles.run}>
      <Link href={links.run(item)}>{item.runId}</Link>
      <span className={styles.why}>
        {item.org}/{item.namespace}/{item.agent}
      </span>
    </td>
  )
}

function BlockCell({ item }: { item: BatchItem }) {
  const identity = item.userId || item.sessionId ? `${item.userId || '∅'} · ${item.sessionId || '∅'}` : null
  return (
    <td className={styles.colBlock}>
      <span className="mono">{item.blockKey}</span>
      {identity ? <span className={styles.why}>{identity}</span> : null}
    </td>
  )
}

const v = (x: string | null | undefined) => (x ? `v${x}` : '—')

/** What the dry run found for each run: its block, the version it moves from and to, and why any is skipped. */
export function PreviewTable({ items, caption }: { items: BatchItem[]; caption: string }) {
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label="Preview of the batch">
      <table className={styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col" className={styles.colBlock}>
              Block
            </th>
            <th scope="col">From → to</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={`${i.org}\u0000${i.namespace}\u0000${i.agent}\u0000${i.runId}`}>
              <RunCell item={i} />
              <BlockCell item={i} />
              <td className={styles.versions}>
                {v(i.fromVersion)} → {i.action === 'clear' ? 'tombstone' : v(i.toVersion)}
              </td>
              <td>
                <span className={`${styles.tag} ${i.action === 'skip' ? styles.skip : styles.write}`}>{i.action}</span>
                {i.why ? <span className={styles.why}>{i.why}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** What the real run did to each run: written (with the new version), a conflict, skipped, or an error. */
export function ResultsTable({ items }: { items: BatchResultItem[] }) {
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label="Results of the batch">
      <table className={styles.table}>
        <caption>One row per run; each link opens the run.</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col" className={styles.colBlock}>
              Block
            </th>
            <th scope="col">Version</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={`${i.org}\u0000${i.namespace}\u0000${i.agent}\u0000${i.runId}`}>
              <RunCell item={i} />
              <BlockCell item={i} />
              <td className={styles.versions}>
                {i.outcome === 'done'
                  ? `${v(i.fromVersion)} → ${v(i.newVersion)}`
                  : i.outcome === 'conflict'
                    ? `${v(i.fromVersion)}, now ${v(i.currentVersion)}`
                    : v(i.fromVersion)}
              </td>
              <td>
                <span className={`${styles.tag} ${styles[i.outcome]}`}>{i.outcome}</span>
                {i.message ? <span className={styles.why}>{i.message}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
