'use client'

import { useQuery } from '@tanstack/react-query'
import { parseAsString, useQueryState } from 'nuqs'
import { useDeferredValue, useMemo } from 'react'
import { cost, count } from '@/lib/format'
import type { RunRef } from '@/lib/loom/identity'
import { runConversationsQueryOptions } from '@/lib/api-client/run-tabs'
import { runKeys } from '@/lib/api-client/keys'
import type { ConversationsResponse } from '@/lib/api/types'
import { Banner } from '../ui/banner'
import { EmptyState } from '../ui/empty-state'
import { ListCutNotice } from '../ui/list-cut-notice'
import { QueryState } from '../ui/query-state'
import { SkeletonPanel } from '../ui/skeleton'
import { TimeAgo } from '../ui/time-ago'
import { matchingTurns, prepareConversations, type PreparedConversation } from './conversation-model'
import { ConversationTurns } from './conversation-turns'
import styles from './conversation-turns.module.css'
import { usePreview } from './use-preview'

function ConversationBlock({
  prepared,
  shown,
  query,
}: {
  prepared: PreparedConversation
  shown: number[]
  query: string
}) {
  const { conv, turns } = prepared
  return (
    <section className="panel stack" aria-label={`Conversation ${conv.title || conv.conversationId}`}>
      <header className={`row ${styles.head}`}>
        <h3 className={styles.title}>{conv.title || <span className="muted">Untitled conversation</span>}</h3>
        <span className="runid">{conv.conversationId}</span>
        <span className="spacer" />
        <span className="small muted">
          {count(turns.length)} turns · {count(prepared.tokensIn)} in / {count(prepared.tokensOut)} out tokens ·{' '}
          {cost(prepared.spend)} · started <TimeAgo iso={conv.createdAt} />
        </span>
      </header>
      {shown.length === 0 ? (
        <p className="muted small">No turn of this conversation contains “{query.trim()}”.</p>
      ) : (
        <ConversationTurns turns={turns} shown={shown} query={query} />
      )}
    </section>
  )
}

/** The transcripts bound to the run, turn by turn, searchable. */
export function ConversationTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery({
    ...runConversationsQueryOptions(runRef),
    placeholderData: usePreview<ConversationsResponse>(runKeys.conversationsPreview(runRef)),
  })
  const [find, setFind] = useQueryState('find', parseAsString.withDefault(''))
  // The list follows the box a beat behind, so typing stays responsive on 10,000+ turns.
  const query = useDeferredValue(find)
  const prepared = useMemo(() => prepareConversations(q.data?.conversations ?? []), [q.data])
  const shown = useMemo(() => prepared.map((p) => matchingTurns(p, query)), [prepared, query])

  const total = prepared.reduce((s, p) => s + p.turns.length, 0)
  const hits = shown.reduce((s, rows) => s + rows.length, 0)

  return (
    <QueryState
      query={q}
      pending={<SkeletonPanel label="Loading conversation" rows={5} />}
      className="stack story"
      isEmpty={() => prepared.length === 0}
      empty={
        <EmptyState title="No conversation is bound to this run">
          No transcript turn carries this run_id; turns written with it would show here. A turn count in the run header
          comes from the run&apos;s own counter (loom.runs.turns), which the agent reports whether or not it stores its
          transcripts.
        </EmptyState>
      }
    >
      {(data) => (
        <>
          {q.isPlaceholderData ? (
            <Banner tone="info">
              <span>Showing the first {count(total)} turns while the rest loads…</span>
            </Banner>
          ) : (
            <ListCutNotice cuts={data.cuts} nouns={{ turns: 'turns' }} />
          )}
          <div className="row" role="search">
            <input
              type="search"
              value={find}
              onChange={(e) => void setFind(e.target.value || null)}
              placeholder="Search turns…"
              aria-label="Search turns"
              className={styles.search}
            />
            <span className="small muted" role="status" aria-live="polite">
              {query.trim()
                ? `${count(hits)} of ${count(total)} turns contain “${query.trim()}”`
                : `${count(total)} turns in ${prepared.length} conversation${prepared.length > 1 ? 's' : ''}`}
            </span>
          </div>
          {prepared.map((p, i) => (
            <ConversationBlock key={p.conv.conversationId} prepared={p} shown={shown[i]} query={query} />
          ))}
        </>
      )}
    </QueryState>
  )
}
