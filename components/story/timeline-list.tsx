'use client'

import { useEffect, type KeyboardEvent } from 'react'
import { absoluteTime } from '@/lib/format'
import type { TimelineKind } from '@/lib/api/timeline-kinds'
import { Tag } from '../ui/badge'
import { useVirtualRows } from '../ui/use-virtual-rows'
import virtual from '../ui/virtual-list.module.css'
import { identityOf, rowTime, type Prepared } from './timeline-model'
import styles from './timeline.module.css'

export const ROW_HEIGHT = 34
const LIST_HEIGHT = 440

type Props = {
  prepared: Prepared
  /** Indices into prepared.events, in time order, after the kind filter. */
  rows: number[]
  /** Position in `rows` of the selected event; -1 when none (or it is filtered out). */
  selectedRow: number
  tags: Map<string, string>
  onSelectRow: (row: number) => void
  /** Enter on the list: move focus to the payload panel. */
  onOpen: () => void
}

export function rowDomId(eventId: string) {
  return `timeline-row-${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`
}

/** Each kind's colour class (it sets --tl-color for the kind's dot and chip). */
export const KIND_CLASS: Record<TimelineKind, string> = {
  'run.begin': styles.kindRunBegin,
  checkpoint: styles.kindCheckpoint,
  'checkpoint.cleared': styles.kindCheckpointCleared,
  block: styles.kindBlock,
  operator: styles.kindOperator,
  turn: styles.kindTurn,
  'memory.write': styles.kindMemoryWrite,
  search: styles.kindSearch,
  blob: styles.kindBlob,
  'run.complete': styles.kindRunComplete,
}

/** An event's kind as the list rows and the payload show it: its coloured dot, then its name. */
export function KindLabel({ kind }: { kind: TimelineKind }) {
  return (
    <span className={`${styles.kind} ${KIND_CLASS[kind]}`}>
      <span className={styles.dot} aria-hidden />
      {kind}
    </span>
  )
}

/** The event list: only the rows in view are in the DOM, so 10,000 events scroll smoothly. */
export function TimelineList({ prepared, rows, selectedRow, tags, onSelectRow, onOpen }: Props) {
  const {
    scrollRef,
    virtualizer,
    rows: items,
    listStyle,
    rowProps,
  } = useVirtualRows({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    // Rows are measured: a long label or an identity line wraps instead of being cut off.
    measureElement: (el) => el.getBoundingClientRect().height,
    overscan: 10,
    // The server's HTML and the first client render already hold the first rows.
    initialRect: { width: 1000, height: LIST_HEIGHT },
  })

  useEffect(() => {
    if (selectedRow >= 0) virtualizer.scrollToIndex(selectedRow, { align: 'auto' })
  }, [selectedRow, virtualizer])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = rows.length - 1
    if (last < 0) return
    const page = Math.max(1, Math.floor(LIST_HEIGHT / ROW_HEIGHT) - 1)
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, selectedRow + 1),
      ArrowUp: Math.max(0, selectedRow < 0 ? 0 : selectedRow - 1),
      PageDown: Math.min(last, Math.max(selectedRow, 0) + page),
      PageUp: Math.max(0, selectedRow - page),
      Home: 0,
      End: last,
    }
    if (e.key in moves) {
      e.preventDefault()
      onSelectRow(moves[e.key])
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      if (selectedRow < 0) onSelectRow(0)
      else onOpen()
    }
  }

  const activeId =
    selectedRow >= 0 && rows[selectedRow] !== undefined ? rowDomId(prepared.events[rows[selectedRow]].id) : undefined
  const height = Math.min(LIST_HEIGHT, rows.length * ROW_HEIGHT + 2)

  return (
    <div className={prepared.multiDay ? `${styles.list} ${styles.isMultiday}` : styles.list}>
      <div className={`${styles.row} ${styles.head}`} data-testid="timeline-head" aria-hidden>
        <span>{prepared.multiDay ? 'date, time (UTC)' : 'time (UTC)'}</span>
        <span>kind</span>
        <span>event</span>
        <span>version</span>
        <span>{prepared.manyIdentities ? 'actor · user/session' : 'actor'}</span>
      </div>
      <div
        ref={scrollRef}
        className={styles.scroll}
        style={{ height }}
        role="listbox"
        tabIndex={0}
        aria-label={`Timeline events, ${rows.length.toLocaleString('en')} in time order. J and K move to the next and previous event.`}
        aria-activedescendant={activeId}
        onKeyDown={onKeyDown}
      >
        <div className={virtual.list} style={listStyle}>
          {items.map((it) => {
            const e = prepared.events[rows[it.index]]
            const tag = tags.get(e.id)
            const selected = it.index === selectedRow
            const identity = prepared.manyIdentities ? identityOf(e) : ''
            const row = rowProps(it)
            return (
              <div
                key={e.id}
                {...row}
                id={rowDomId(e.id)}
                role="option"
                aria-selected={selected}
                aria-posinset={it.index + 1}
                aria-setsize={rows.length}
                data-event-id={e.id}
                className={`${styles.row} ${styles.item} ${virtual.row}${selected ? ` ${styles.isSelected}` : ''}`}
                style={{ ...row.style, minHeight: ROW_HEIGHT }}
                onClick={() => onSelectRow(it.index)}
              >
                <span className={`mono ${styles.time}`} data-testid="timeline-time" title={absoluteTime(e.at)}>
                  {rowTime(e.at, prepared.multiDay)}
                </span>
                <KindLabel kind={e.kind} />
                <span className={styles.label} data-testid="timeline-label" title={e.label}>
                  {tag ? <Tag className={styles.resumeTag}>{tag}</Tag> : null}
                  {e.label}
                </span>
                <span className="mono">{e.version ? `v${e.version}` : ''}</span>
                <span className={styles.actor} title={identity ? `${e.actor} as ${identity}` : e.actor}>
                  {e.actor}
                  {identity ? (
                    <span className={`mono ${styles.identity}`} data-testid="timeline-identity">
                      {identity}
                    </span>
                  ) : null}
                </span>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
