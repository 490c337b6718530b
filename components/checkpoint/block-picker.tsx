'use client'

import type { Block } from '@/lib/api/types'
import { count, percent } from '@/lib/format'
import { TimeAgo } from '../ui/time-ago'
import { groupByIdentity, idValue, sameChoice, type BlockChoice } from './identity'

type Props = {
  blocks: readonly Block[]
  selected: BlockChoice
  onSelect: (choice: BlockChoice) => void
}

function sizeClass(b: Block): string {
  const pct = percent(b.chars, b.charLimit)
  return pct >= 100 ? 'tag-bad' : pct >= 90 ? 'tag-warn' : ''
}

/** The run's blocks by (user_id, session_id), newest identity first, to pick the one to explain. */
export function BlockPicker({ blocks, selected, onSelect }: Props) {
  const groups = groupByIdentity(blocks)
  return (
    <nav className="ck-picker" aria-label="Blocks of this run">
      <h2 className="ck-picker-title">Blocks</h2>
      {groups.length > 1 ? (
        <p className="ck-picker-note" role="note">
          This run has blocks under {groups.length} different user/session identities; a <code>resume</code> sees only those of its own.
        </p>
      ) : null}
      {groups.map((g, gi) => (
        <section
          key={`${g.userId}\u0000${g.sessionId}`}
          className="ck-group"
          aria-label={`Blocks for user ${g.userId || 'unset'}, session ${g.sessionId || 'unset'}`}
        >
          <header>
            <span>
              user <code>{idValue(g.userId)}</code>
            </span>
            <span>
              session <code>{idValue(g.sessionId)}</code>
            </span>
            {groups.length > 1 && gi === 0 ? <span className="tag ck-newest">newest</span> : null}
          </header>
          <ul>
            {g.blocks.map((b) => {
              const choice = { blockKey: b.blockKey, userId: b.userId, sessionId: b.sessionId }
              const current = sameChoice(choice, selected)
              return (
                <li key={b.blockKey}>
                  <button
                    type="button"
                    className="ck-pick"
                    data-block-key={b.blockKey}
                    aria-current={current ? 'true' : undefined}
                    aria-label={`${b.blockKey}, v${b.version}${b.isDeleted ? ', cleared' : ''} — user ${idValue(b.userId)}, session ${idValue(b.sessionId)}`}
                    onClick={() => onSelect(choice)}
                  >
                    <span className="ck-pick-top">
                      <strong className="mono">{b.blockKey}</strong>
                      <span className="tag mono">v{b.version}</span>
                    </span>
                    <span className="ck-pick-bottom small muted">
                      {b.isDeleted ? (
                        <span className="tag tag-warn">cleared (tombstone)</span>
                      ) : (
                        <span className={`tag ${sizeClass(b)}`} title={`${count(b.chars)} of ${count(b.charLimit)} characters`}>
                          {count(b.chars)} chars
                        </span>
                      )}
                      <TimeAgo iso={b.updatedAt} />
                    </span>
                  </button>
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </nav>
  )
}
