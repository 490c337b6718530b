'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { parseAsStringLiteral, useQueryState } from 'nuqs'
import { useEffect, useRef, type KeyboardEvent } from 'react'
import type { RunCounts } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { CheckpointTab } from '../checkpoint/checkpoint-tab'
import { RUN_TAB_QUERY } from '@/lib/api-client/run-tabs'
import { runBlocksQueryOptions, runDetailQueryOptions } from '@/lib/api-client/run-detail'
import { BlobsTab } from '../story/blobs-tab'
import { ConversationTab } from '../story/conversation-tab'
import { ExportButton } from '../story/export-button'
import { MemoriesTab } from '../story/memories-tab'
import { SearchesTab } from '../story/searches-tab'
import { TabSkeleton } from '../story/tab-states'
import { TimelineTab } from '../story/timeline-tab'
import { ErrorBanner } from '../ui/error-banner'
import { TabStrip } from '../ui/tab-strip'
import { AuditLog } from './audit-log'
import { BlocksList } from './blocks-list'
import { RunHeader } from './run-header'

const TABS = ['checkpoint', 'timeline', 'conversation', 'memories', 'searches', 'blobs', 'blocks', 'audit'] as const
type Tab = (typeof TABS)[number]
const TAB_LABELS: Record<Tab, string> = {
  checkpoint: 'Checkpoint',
  timeline: 'Timeline',
  conversation: 'Conversation',
  memories: 'Memories',
  searches: 'Searches',
  blobs: 'Blobs',
  blocks: 'Blocks',
  audit: 'Audit',
}
const TAB_COUNTS: Partial<Record<Tab, keyof RunCounts>> = {
  conversation: 'turns',
  memories: 'memories',
  searches: 'searches',
  blobs: 'blobs',
  blocks: 'blocks',
}

/** The data the open tab shows, asked for together with the run itself instead of after it. */
const TAB_QUERY = RUN_TAB_QUERY satisfies Record<Tab, unknown>

/** Every block with its content can be megabytes on a big run: only the tabs that show blocks load them. */
function BlocksTab({ runRef }: { runRef: RunRef }) {
  const blocks = useQuery(runBlocksQueryOptions(runRef))
  if (blocks.isError) return <ErrorBanner error={blocks.error} onRetry={() => blocks.refetch()} />
  if (blocks.isPending) return <div className="skeleton" />
  return <BlocksList blocks={blocks.data.blocks} />
}

/**
 * `pendingTab`: the server is still reading the open tab's data (the page streams it in after the
 * header), so the panel shows its loading state instead of a tab that would ask for the data itself.
 */
export function RunView({ runRef, pendingTab = false }: { runRef: RunRef; pendingTab?: boolean }) {
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(TABS).withDefault('checkpoint'))
  const detail = useQuery(runDetailQueryOptions(runRef))
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({})
  const queryClient = useQueryClient()
  const { org, namespace, agent, runId } = runRef
  useEffect(() => {
    void queryClient.prefetchQuery(TAB_QUERY[tab]({ org, namespace, agent, runId }) as Parameters<typeof queryClient.prefetchQuery>[0])
  }, [queryClient, tab, org, namespace, agent, runId])

  // Arrow keys, Home and End move between tabs, as in any tablist.
  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab)
    const moves: Record<string, Tab> = {
      ArrowRight: TABS[(i + 1) % TABS.length],
      ArrowLeft: TABS[(i - 1 + TABS.length) % TABS.length],
      Home: TABS[0],
      End: TABS[TABS.length - 1],
    }
    const next = moves[e.key]
    if (!next) return
    e.preventDefault()
    void setTab(next)
    tabRefs.current[next]?.focus()
  }

  if (detail.isPending) {
    return (
      <div className="panel stack" aria-busy="true" aria-label="Loading run">
        <div className="skeleton" style={{ width: '40%', height: 22 }} />
        <div className="skeleton" />
        <div className="skeleton" />
      </div>
    )
  }
  if (detail.isError && !detail.data) {
    const notFound = (detail.error as { status?: number }).status === 404
    return notFound ? (
      <div className="panel empty" role="alert">
        <h1>Run not found</h1>
        <p>
          No run <code>{runRef.runId}</code> under {runRef.org} / {runRef.namespace} / {runRef.agent}.
        </p>
      </div>
    ) : (
      <ErrorBanner error={detail.error} onRetry={() => detail.refetch()} />
    )
  }
  const counts = detail.data.counts
  const shown: Tab | null = pendingTab ? null : tab
  return (
    <div className="stack">
      {detail.isError ? <ErrorBanner error={detail.error} onRetry={() => detail.refetch()} stale /> : null}
      <RunHeader detail={detail.data} actions={<ExportButton runRef={runRef} />} />
      <TabStrip selectedKey={tab} label="Run views" onKeyDown={onTabKey}>
        {TABS.map((t) => {
          const c = TAB_COUNTS[t]
          return (
            <button
              key={t}
              ref={(el) => {
                tabRefs.current[t] = el
              }}
              role="tab"
              type="button"
              id={`tab-${t}`}
              aria-selected={tab === t}
              aria-controls="run-tabpanel"
              tabIndex={tab === t ? 0 : -1}
              onClick={() => setTab(t)}
            >
              {TAB_LABELS[t]}
              {c ? <span className="count">{counts[c].toLocaleString('en')}</span> : null}
            </button>
          )
        })}
      </TabStrip>
      <div role="tabpanel" id="run-tabpanel" aria-labelledby={`tab-${tab}`} aria-label={TAB_LABELS[tab]}>
        {pendingTab ? <TabSkeleton label={`Loading ${TAB_LABELS[tab].toLowerCase()}`} rows={6} /> : null}
        {shown === 'checkpoint' ? <CheckpointTab runRef={runRef} /> : null}
        {shown === 'timeline' ? <TimelineTab runRef={runRef} /> : null}
        {shown === 'conversation' ? <ConversationTab runRef={runRef} /> : null}
        {shown === 'memories' ? <MemoriesTab runRef={runRef} /> : null}
        {shown === 'searches' ? <SearchesTab runRef={runRef} /> : null}
        {shown === 'blobs' ? <BlobsTab runRef={runRef} /> : null}
        {shown === 'audit' ? <AuditLog runRef={runRef} /> : null}
        {shown === 'blocks' ? <BlocksTab runRef={runRef} /> : null}
      </div>
    </div>
  )
}
