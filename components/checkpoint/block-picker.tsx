'use client'

import { useEffect } from 'react'
import type { BlockSummary } from '@/lib/api/types'
import { count, percent } from '@/lib/format'
import { Tag, type TagTone } from '../ui/badge'
import { TimeAgo } from '../ui/time-ago'
import { useVirtualRows } from '../ui/use-virtual-rows'
import virtual from '../ui/virtual-list.module.css'
import styles from './block-picker.module.css'
import { groupByIdentity, idValue, sameChoice, type BlockChoice } from './block-choice'

type Props = {
  /** The content-free list (`GET R/blocks?content=none`): a picker shows names, versions and sizes only. */
  blocks: readonly BlockSummary[]
  selected: BlockChoice
  onSelect: (choice: BlockChoice) => void
}

/** Up to this many blocks in a group render as a plain list; more are virtualized. */
const PLAIN_BLOCKS = 60
const PICK_ESTIMATE = 58

function sizeTone(b: BlockSummary): TagTone {
  const pct = percent(b.chars, b.charLimit)
  return pct >= 100 ? 'bad' : pct >= 90 ? 'warning' : 'neutral'
}

function PickButton({
  b,
  selected,
  onSelect,
}: {
  b: BlockSummary
  selected: BlockChoice
  onSelect: (choice: BlockChoice) => void
}) {
  const choice = { blockKey: b.blockKey, userId: b.userId, sessionId: b.sessionId }
  const current = sameChoice(choice, selected)
  return (
    <button
      type="button"
      className={styles.pick}
      data-block-key={b.blockKey}
      aria-current={current ? 'true' : undefined}
      aria-label={`${b.blockKey}, v${b.version}${b.isDeleted ? ', cleared' : ''} — user ${idValue(b.userId)}, session ${idValue(b.sessionId)}`}
      onClick={() => onSelect(choice)}
    >
      <span className={styles.pickTop}>
        <strong className="mono">{b.blockKey}</strong>
        <Tag className="mono">v{b.version}</Tag>
      </span>
      <span className={`${styles.pickBottom} small muted`}>
        {b.isDeleted ? (
          <Tag tone="warning">cleared (tombstone)</Tag>
        ) : (
          <Tag tone={sizeTone(b)} title={`${count(b.chars)} of ${count(b.charLimit)} characters`}>
            {count(b.chars)} chars
          </Tag>
        )}
        <TimeAgo iso={b.updatedAt} />
      </span>
    </button>
  )
}

type ListProps = { blocks: readonly BlockSummary[]; selected: BlockChoice; onSelect: (choice: BlockChoice) => void }

/** Thousands of blocks under one identity: only the buttons in view are in the DOM; the selected one is scrolled to. */
function VirtualPicks({ blocks, selected, onSelect }: ListProps) {
  const { scrollRef, virtualizer, rows, listStyle, rowProps } = useVirtualRows({
    count: blocks.length,
    estimateSize: () => PICK_ESTIMATE,
    getItemKey: (i) => blocks[i].blockKey,
    overscan: 6,
    initialRect: { width: 280, height: 560 },
  })
  const selectedAt = blocks.findIndex((b) =>
    sameChoice({ blockKey: b.blockKey, userId: b.userId, sessionId: b.sessionId }, selected),
  )
  useEffect(() => {
    if (selectedAt >= 0) virtualizer.scrollToIndex(selectedAt, { align: 'auto' })
  }, [selectedAt, virtualizer])
  return (
    <div ref={scrollRef} className={`${virtual.scroll} ${styles.scroll}`}>
      <ul className={virtual.list} style={listStyle} aria-label={`${count(blocks.length)} blocks; scroll for more`}>
        {rows.map((it) => (
          <li
            key={it.key}
            {...rowProps(it)}
            className={virtual.row}
            aria-posinset={it.index + 1}
            aria-setsize={blocks.length}
          >
            <PickButton b={blocks[it.index]} selected={selected} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The run's blocks by (user_id, session_id), newest identity first, to pick the one to explain. */
export function BlockPicker({ blocks, selected, onSelect }: Props) {
  const groups = groupByIdentity(blocks)
  return (
    <nav className={styles.picker} aria-label="Blocks of this run">
      <h2 className={styles.pickerTitle}>Blocks</h2>
      {groups.length > 1 ? (
        <p className={styles.pickerNote} role="note">
          This run has blocks under {groups.length} different user/session identities; a <code>resume</code> sees only
          those of its own.
        </p>
      ) : null}
      {groups.map((g, gi) => (
        <section
          key={`${g.userId}\u0000${g.sessionId}`}
          className={styles.group}
          aria-label={`Blocks for user ${g.userId || 'unset'}, session ${g.sessionId || 'unset'}`}
        >
          <header>
            <span>
              user <code>{idValue(g.userId)}</code>
            </span>
            <span>
              session <code>{idValue(g.sessionId)}</code>
            </span>
            {groups.length > 1 && gi === 0 ? <Tag className={styles.newest}>newest</Tag> : null}
            {g.blocks.length > PLAIN_BLOCKS ? <span>{count(g.blocks.length)} blocks</span> : null}
          </header>
          {g.blocks.length > PLAIN_BLOCKS ? (
            <VirtualPicks blocks={g.blocks} selected={selected} onSelect={onSelect} />
          ) : (
            <ul>
              {g.blocks.map((b) => (
                <li key={b.blockKey}>
                  <PickButton b={b} selected={selected} onSelect={onSelect} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </nav>
  )
}
