'use client'

import { useQuery } from '@tanstack/react-query'
import { parseAsString, useQueryState } from 'nuqs'
import { useDeferredValue, useMemo } from 'react'
import { absoluteTime, cost, count } from '@/lib/format'
import type { RunRef } from '@/lib/loom/identity'
import type { Conversation, Turn } from '@/lib/queries/conversations'
import { runConversationsQueryOptions } from '../data/run-queries'
import { prettyContent } from '../ui/content-view'
import { ErrorBanner } from '../ui/error-banner'
import { TimeAgo } from '../ui/time-ago'
import { Highlight, matches } from './highlight'
import { TabEmpty, TabSkeleton } from './tab-states'
import { ListCutNotice } from '../ui/list-cut-notice'

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])
const FOLD_CHARS = 700
const FOLD_LINES = 14

function turnText(t: Turn) {
  return prettyContent(t.content).text
}

function TurnItem({ turn, query }: { turn: Turn; query: string }) {
  const role = ROLES.has(turn.role) ? turn.role : 'other'
  const text = turnText(turn)
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES
  const hit = query.trim() !== '' && matches(text, query)
  const body = (
    <pre className="cv-content">
      <Highlight text={text} query={query} />
    </pre>
  )
  return (
    <li className={`cv-turn cv-role-${role}`} data-turn-index={turn.turnIndex} data-role={turn.role} aria-label={`Turn ${turn.turnIndex}, ${turn.role}`}>
      <div className="cv-meta">
        <span className={`cv-role cv-role-badge-${role}`}>{turn.role || 'unknown'}</span>
        <span className="mono small muted">#{turn.turnIndex}</span>
        {turn.toolName ? (
          <span className="tag cv-tool" title="Tool name">
            <span aria-hidden>⚙ </span>
            <Highlight text={turn.toolName} query={query} />
          </span>
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
      {text === '' ? (
        <p className="muted small cv-empty">(empty)</p>
      ) : long ? (
        // Opens itself when the search matches inside; the reader can still fold it again.
        <details className="cv-fold" open={hit || undefined}>
          <summary>
            <span className="cv-preview">{text.slice(0, 160).replace(/\s+/g, ' ')}…</span>{' '}
            <span className="muted">({count(text.length)} characters, show all)</span>
          </summary>
          {body}
        </details>
      ) : (
        body
      )}
    </li>
  )
}

function ConversationBlock({ conv, query }: { conv: Conversation; query: string }) {
  const turns = useMemo(() => [...conv.turns].sort((a, b) => a.turnIndex - b.turnIndex), [conv.turns])
  const shown = turns.filter((t) => matches(`${t.role}\n${t.toolName}\n${turnText(t)}`, query))
  const tokensIn = turns.reduce((s, t) => s + t.inputTokens, 0)
  const tokensOut = turns.reduce((s, t) => s + t.outputTokens, 0)
  const spend = turns.reduce((s, t) => s + t.costUsd, 0)
  return (
    <section className="panel stack cv-conv" aria-label={`Conversation ${conv.title || conv.conversationId}`}>
      <header className="row cv-head">
        <h3 style={{ margin: 0 }}>{conv.title || <span className="muted">Untitled conversation</span>}</h3>
        <span className="runid">{conv.conversationId}</span>
        <span className="spacer" />
        <span className="small muted">
          {count(turns.length)} turns · {count(tokensIn)} in / {count(tokensOut)} out tokens · {cost(spend)} · started <TimeAgo iso={conv.createdAt} />
        </span>
      </header>
      {shown.length === 0 ? (
        <p className="muted small">No turn of this conversation contains “{query.trim()}”.</p>
      ) : (
        <ol className="cv-turns" aria-label="Turns in order">
          {shown.map((t) => (
            <TurnItem key={`${t.turnIndex}-${t.createdAt}`} turn={t} query={query} />
          ))}
        </ol>
      )}
    </section>
  )
}

/** The transcripts bound to the run, turn by turn, searchable. */
export function ConversationTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runConversationsQueryOptions(runRef))
  const [find, setFind] = useQueryState('find', parseAsString.withDefault(''))
  const query = useDeferredValue(find)

  if (q.isPending) return <TabSkeleton label="Loading conversation" rows={5} />
  if (q.isError && !q.data) return <ErrorBanner error={q.error} onRetry={() => q.refetch()} />
  const convs = q.data.conversations
  const total = convs.reduce((s, c) => s + c.turns.length, 0)
  const hits = query.trim() ? convs.reduce((s, c) => s + c.turns.filter((t) => matches(`${t.role}\n${t.toolName}\n${turnText(t)}`, query)).length, 0) : total

  return (
    <div className="stack story">
      {q.isError ? <ErrorBanner error={q.error} onRetry={() => q.refetch()} stale /> : null}
      <ListCutNotice cuts={q.data.cuts} nouns={{ turns: 'turns' }} />
      {convs.length === 0 ? (
        <TabEmpty title="No conversation is bound to this run">
          No transcript turn carries this run_id; turns written with it would show here. A turn count in the run header comes from the
          run&apos;s own counter (loom.runs.turns), which the agent reports whether or not it stores its transcripts.
        </TabEmpty>
      ) : (
        <>
          <div className="row cv-toolbar" role="search">
            <input
              type="search"
              value={find}
              onChange={(e) => void setFind(e.target.value || null)}
              placeholder="Search turns…"
              aria-label="Search turns"
              className="cv-search"
            />
            <span className="small muted" role="status" aria-live="polite">
              {query.trim() ? `${count(hits)} of ${count(total)} turns contain “${query.trim()}”` : `${count(total)} turns in ${convs.length} conversation${convs.length > 1 ? 's' : ''}`}
            </span>
          </div>
          {convs.map((c) => (
            <ConversationBlock key={c.conversationId} conv={c} query={query} />
          ))}
        </>
      )}
    </div>
  )
}
