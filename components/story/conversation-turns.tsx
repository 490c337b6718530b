'use client'

import { absoluteTime, cost, count } from '@/lib/format'
import type { Turn } from '@/lib/api/types'
import { Tag } from '../ui/badge'
import { prettyContent } from '../ui/content-view'
import { TimeAgo } from '../ui/time-ago'
import { SERVER_RENDERED_ROWS, useVirtualRows } from '../ui/use-virtual-rows'
import { VirtualScroll } from '../ui/virtual-scroll'
import virtual from '../ui/virtual-list.module.css'
import styles from './conversation-turns.module.css'
import { Highlight } from './highlight'

type Role = 'system' | 'user' | 'assistant' | 'tool' | 'other'
const isRole = (r: string): r is Exclude<Role, 'other'> =>
  r === 'system' || r === 'user' || r === 'assistant' || r === 'tool'

// Whole class names per role, so a search for a role's look finds where it is set.
const ROLE_CLASS: Record<Role, string> = {
  system: styles.roleSystem,
  user: styles.roleUser,
  assistant: styles.roleAssistant,
  tool: styles.roleTool,
  other: styles.roleOther,
}
const FOLD_CHARS = 700
const FOLD_LINES = 14
/** Up to this many turns render as a plain list; longer conversations are virtualized. */
export const PLAIN_TURNS = 60
const TURN_ESTIMATE = 120
const TURN_GAP = 10

function TurnBody({ turn, query }: { turn: Turn; query: string }) {
  const text = prettyContent(turn.content).text
  if (text === '') return <p className={`muted small ${styles.empty}`}>(empty)</p>
  const long = text.length > FOLD_CHARS || text.split('\n', FOLD_LINES + 1).length > FOLD_LINES
  const body = (
    <pre className={styles.content}>
      <Highlight text={text} query={query} />
    </pre>
  )
  if (!long) return body
  const q = query.trim().toLowerCase()
  const hit = q !== '' && text.toLowerCase().includes(q)
  // Opens itself when the search matches inside; the reader can still fold it again.
  return (
    <details className={styles.fold} open={hit || undefined}>
      <summary>
        <span className={styles.preview}>{text.slice(0, 160).replace(/\s+/g, ' ')}…</span>{' '}
        <span className="muted">({count(text.length)} characters, show all)</span>
      </summary>
      {body}
    </details>
  )
}

function TurnContent({ turn, query }: { turn: Turn; query: string }) {
  return (
    <>
      <div className={styles.meta}>
        <span className={styles.role}>{turn.role || 'unknown'}</span>
        <span className="mono small muted">#{turn.turnIndex}</span>
        {turn.toolName ? (
          <Tag className={styles.tool} title="Tool name">
            <span aria-hidden>⚙ </span>
            <Highlight text={turn.toolName} query={query} />
          </Tag>
        ) : null}
        <span className="spacer" />
        {turn.inputTokens || turn.outputTokens ? (
          <span className="small muted" title="Input / output tokens">
            {count(turn.inputTokens)} in · {count(turn.outputTokens)} out
          </span>
        ) : null}
        {turn.costUsd ? <span className="small muted">{cost(turn.costUsd)}</span> : null}
        <span className="small muted" title={absoluteTime(turn.createdAt)}>
          <TimeAgo iso={turn.createdAt} />
        </span>
      </div>
      <TurnBody turn={turn} query={query} />
    </>
  )
}

function turnProps(turn: Turn) {
  const role: Role = isRole(turn.role) ? turn.role : 'other'
  return {
    className: `${styles.turn} ${ROLE_CLASS[role]}`,
    'data-turn-index': turn.turnIndex,
    'data-role': turn.role,
    'aria-label': `Turn ${turn.turnIndex}, ${turn.role}`,
  }
}

type Props = { turns: readonly Turn[]; shown: readonly number[]; query: string }

/** A short conversation: every turn in the DOM. */
function PlainTurns({ turns, shown, query }: Props) {
  return (
    <ol className={styles.turns} aria-label="Turns in order">
      {shown.map((i) => (
        <li key={`${turns[i].turnIndex}-${turns[i].createdAt}`} {...turnProps(turns[i])}>
          <TurnContent turn={turns[i]} query={query} />
        </li>
      ))}
    </ol>
  )
}

/** A long conversation: only the turns in view (and a few around) are in the DOM, measured as they render. */
function VirtualTurns({ turns, shown, query }: Props) {
  const { scrollRef, rows, listStyle, rowProps } = useVirtualRows({
    count: shown.length,
    estimateSize: () => TURN_ESTIMATE,
    getItemKey: (i) => `${turns[shown[i]].turnIndex}-${turns[shown[i]].createdAt}`,
    gap: TURN_GAP,
    ...SERVER_RENDERED_ROWS,
  })
  return (
    <VirtualScroll
      scrollRef={scrollRef}
      className={styles.scroll}
      label={`Turns, ${count(shown.length)} in order; scroll for more`}
    >
      <ol className={`${styles.turns} ${virtual.list}`} aria-label="Turns in order" style={listStyle}>
        {rows.map((it) => {
          const turn = turns[shown[it.index]]
          return (
            <li
              key={it.key}
              {...rowProps(it)}
              aria-posinset={it.index + 1}
              aria-setsize={shown.length}
              {...turnProps(turn)}
              className={`${turnProps(turn).className} ${virtual.row}`}
            >
              <TurnContent turn={turn} query={query} />
            </li>
          )
        })}
      </ol>
    </VirtualScroll>
  )
}

export function ConversationTurns(props: Props) {
  return props.shown.length > PLAIN_TURNS ? <VirtualTurns {...props} /> : <PlainTurns {...props} />
}
