'use client'

import type { Block } from '@/lib/api/types'
import { count } from '@/lib/format'
import { Tag } from '../ui/badge'
import { CharMeter } from '../ui/checkpoint-meter'
import { ContentView } from '../ui/content-view'
import { TimeAgo } from '../ui/time-ago'
import { SERVER_RENDERED_ROWS, useVirtualRows } from '../ui/use-virtual-rows'
import { VirtualScroll } from '../ui/virtual-scroll'
import virtual from '../ui/virtual-list.module.css'

type Group = { userId: string; sessionId: string; blocks: Block[] }

/** Up to this many blocks in a group render as a plain list; more are virtualized. */
const PLAIN_BLOCKS = 60
const BLOCK_ESTIMATE = 96

function groupByIdentity(blocks: Block[]): Group[] {
  const groups = new Map<string, Group>()
  for (const b of blocks) {
    const key = JSON.stringify([b.userId, b.sessionId])
    const g = groups.get(key) ?? { userId: b.userId, sessionId: b.sessionId, blocks: [] }
    g.blocks.push(b)
    groups.set(key, g)
  }
  return [...groups.values()]
}

function BlockBody({ b }: { b: Block }) {
  return (
    <>
      <div className="row">
        <strong className="mono">{b.blockKey}</strong>
        <Tag className="mono">v{b.version}</Tag>
        {b.isDeleted ? <Tag tone="warning">cleared (tombstone): resume returns None</Tag> : null}
        {!b.isDeleted ? <CharMeter chars={b.chars} limit={b.charLimit} /> : null}
        <span className="spacer" />
        <span className="small muted">
          written by <span className="mono">{b.actor}</span> from <span className="mono">{b.sourceTrace || '—'}</span> ·{' '}
          <TimeAgo iso={b.updatedAt} />
        </span>
      </div>
      {b.isDeleted ? null : <ContentView text={b.content} label={`Content of ${b.blockKey}`} />}
    </>
  )
}

/** Thousands of blocks under one identity: only those in view are in the DOM, measured as they render. */
function VirtualBlocks({ blocks }: { blocks: Block[] }) {
  const { scrollRef, rows, listStyle, rowProps } = useVirtualRows({
    count: blocks.length,
    estimateSize: () => BLOCK_ESTIMATE,
    getItemKey: (i) => blocks[i].blockKey,
    ...SERVER_RENDERED_ROWS,
  })
  return (
    <VirtualScroll scrollRef={scrollRef} label={`${count(blocks.length)} blocks; scroll for more`}>
      <div className={virtual.list} style={listStyle}>
        {rows.map((it) => {
          const b = blocks[it.index]
          return (
            <article key={it.key} {...rowProps(it)} className={`block ${virtual.row}`} data-block-key={b.blockKey}>
              <BlockBody b={b} />
            </article>
          )
        })}
      </div>
    </VirtualScroll>
  )
}

export function BlocksList({ blocks }: { blocks: Block[] }) {
  if (blocks.length === 0) {
    return <div className="panel empty">This run has no working-memory blocks.</div>
  }
  const groups = groupByIdentity(blocks)
  return (
    <div className="stack">
      {groups.length > 1 ? (
        <div className="banner banner-warn" role="note">
          This run has blocks under {groups.length} different user/session identities. A <code>resume</code> made under
          one of them does not see the others.
        </div>
      ) : null}
      {groups.map((g) => (
        <section
          key={`${g.userId}\u0000${g.sessionId}`}
          className="block-group"
          aria-label={`Blocks for user ${g.userId || 'unset'}, session ${g.sessionId || 'unset'}`}
        >
          <header>
            <span>
              user <code>{g.userId || '∅ (unset)'}</code>
            </span>
            <span>
              session <code>{g.sessionId || '∅ (unset)'}</code>
            </span>
            {g.blocks.length > PLAIN_BLOCKS ? <span>{count(g.blocks.length)} blocks</span> : null}
          </header>
          {g.blocks.length > PLAIN_BLOCKS ? (
            <VirtualBlocks blocks={g.blocks} />
          ) : (
            g.blocks.map((b) => (
              <article key={b.blockKey} className="block" data-block-key={b.blockKey}>
                <BlockBody b={b} />
              </article>
            ))
          )}
        </section>
      ))}
    </div>
  )
}
