'use client'

import Link from 'next/link'
import type { ReactNode } from 'react'
import { afterList } from '@/components/editor/replay-note'
import { links } from '@/lib/links'
import { absoluteTime, relativeTime } from '@/lib/format'
import type { BatchItem, BatchResultItem } from '@/lib/batch/types'
import { StatusBadge, Tag, type TagTone } from '../ui/badge'
import styles from './batch.module.css'

const v = (x: string | null | undefined) => (x ? `v${x}` : '—')

/** The tag tone of each planned action and outcome. */
export const BATCH_STATE_TONE: Record<BatchItem['action'] | BatchResultItem['outcome'], TagTone> = {
  clear: 'accent',
  restore: 'accent',
  skip: 'unknown',
  done: 'ok',
  conflict: 'warning',
  skipped: 'unknown',
  error: 'bad',
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
  replaces,
}: {
  label: string
  caption: string
  versionsHead: string
  stateHead: string
  items: T[]
  versions: (item: T) => ReactNode
  state: (item: T) => keyof typeof BATCH_STATE_TONE
  note: (item: T) => string | null | undefined
  /** The preview's column: the run's status and the row the write replaces, with its warnings. */
  replaces?: (item: T) => ReactNode
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
            {replaces ? <th scope="col">Status · replaces</th> : null}
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
                  <Link prefetch={false} href={links.run(i)}>
                    {i.runId}
                  </Link>
                  <span className={styles.why}>
                    {i.org}/{i.namespace}/{i.agent}
                  </span>
                </td>
                <td className={styles.colBlock}>
                  <span className="mono">{i.blockKey}</span>
                  {identity ? <span className={styles.why}>{identity}</span> : null}
                </td>
                {replaces ? <td>{replaces(i)}</td> : null}
                <td className={styles.versions}>{versions(i)}</td>
                <td>
                  <Tag tone={BATCH_STATE_TONE[state(i)]}>{state(i)}</Tag>
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

/** Why an item is skipped, in words (the API's `running` is a code). */
function skipNote(i: BatchItem): string | undefined {
  if (i.why === 'running')
    return 'still running: it checkpointed under 5 minutes ago, so its next checkpoint would undo the write. Stop the agent first, or include running runs.'
  return i.why
}

/** What the write makes the agent redo, and what the run wrote after the version the block goes back to. */
function Foresight({ item }: { item: BatchItem }) {
  if (!item.after || !item.units) return null
  const u = item.units
  const redo =
    u.kind === 'none' || u.redo === null
      ? 'units not countable'
      : u.redo === 0
        ? 'redoes no unit'
        : `redoes ${u.redo.toLocaleString('en')} unit${u.redo === 1 ? '' : 's'} (${u.sample.join(', ')}${u.redo > u.sample.length ? ', …' : ''})`
  const point = item.action === 'restore' && item.toVersion ? `v${item.toVersion}` : 'its first write'
  const list = afterList(item.after)
  return (
    <span className={styles.why} data-testid="batch-foresight">
      {redo}; {list ? `after ${point}: ${list}` : `nothing written after ${point}`}
    </span>
  )
}

/** The run's status and the row the write would replace: its version, who wrote it, live or tombstone, when. */
function Replaces({ item }: { item: BatchItem }) {
  const c = item.current
  return (
    <>
      <StatusBadge status={item.status} />
      {c ? (
        <span className={styles.why}>
          <span className="mono">v{c.version}</span> {c.isDeleted ? 'tombstone' : 'live'} by{' '}
          <span className="mono">
            {c.byOperator ? c.actor.slice('operator:'.length) + ' (operator)' : c.actor || 'unknown'}
          </span>
          ,{' '}
          <time dateTime={c.updatedAt} title={absoluteTime(c.updatedAt)}>
            {relativeTime(c.updatedAt)}
          </time>
        </span>
      ) : null}
      <Foresight item={item} />
      {item.warnings.length ? (
        <ul className={styles.warnings} aria-label="Warnings">
          {item.warnings.map((w) => (
            <li key={w}>⚠ {w}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

/** The Checkpoint tab comparing what the block holds now with what the write would put there. */
function diffHref(i: BatchItem): string | null {
  if (!i.fromVersion) return null
  const b = i.action === 'restore' || (i.action === 'skip' && i.toVersion) ? i.toVersion : null
  return links.run(i, {
    tab: 'checkpoint',
    block: i.blockKey,
    user: i.userId || undefined,
    session: i.sessionId || undefined,
    a: i.fromVersion,
    b: b ?? undefined,
  })
}

/** What the dry run found for each run: its status, what it replaces, the version it moves from and to, and why any is skipped. */
export function PreviewTable({ items, caption }: { items: BatchItem[]; caption: string }) {
  return (
    <BatchTable
      label="Preview of the batch"
      caption={caption}
      versionsHead="From → to"
      stateHead="Action"
      items={items}
      replaces={(i) => <Replaces item={i} />}
      versions={(i) => {
        const href = diffHref(i)
        const text = `${v(i.fromVersion)} → ${i.action === 'clear' ? 'tombstone' : v(i.toVersion)}`
        return (
          <>
            {text}
            {href ? (
              <a
                className={styles.diffLink}
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`${i.toVersion && i.action !== 'clear' ? 'Diff' : 'Open'} ${text} of ${i.runId} (opens in a new tab)`}
              >
                {i.toVersion && i.action !== 'clear' ? 'diff' : 'view'} ↗
              </a>
            ) : null}
          </>
        )
      }}
      state={(i) => i.action}
      note={skipNote}
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
