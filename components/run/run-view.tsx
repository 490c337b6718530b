'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { parseAsStringLiteral, useQueryState } from 'nuqs'
import { useEffect } from 'react'
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
import { TimelineTab } from '../story/timeline-tab'
import { ErrorBanner } from '../ui/error-banner'
import { QueryState } from '../ui/query-state'
import { Skeleton } from '../ui/skeleton'
import { RUN_TABS, type RunTab } from '@/lib/api-client/tab-names'
import { Tabs } from '../ui/tabs'
import { AuditLog } from './audit-log'
import { BlocksList } from './blocks-list'
import { RunHeader } from './run-header'

const TAB_LABELS: Record<RunTab, string> = {
  checkpoint: 'Checkpoint',
  timeline: 'Timeline',
  conversation: 'Conversation',
  memories: 'Memories',
  searches: 'Searches',
  blobs: 'Blobs',
  blocks: 'Blocks',
  audit: 'Audit',
}
const TAB_COUNTS: Partial<Record<RunTab, keyof RunCounts>> = {
  conversation: 'turns',
  memories: 'memories',
  searches: 'searches',
  blobs: 'blobs',
  blocks: 'blocks',
}

/** The data the open tab shows, asked for together with the run itself instead of after it. */
const TAB_QUERY = RUN_TAB_QUERY satisfies Record<RunTab, unknown>

/** Every block with its content can be megabytes on a big run: only the tabs that show blocks load them. */
function BlocksTab({ runRef }: { runRef: RunRef }) {
  const blocks = useQuery(runBlocksQueryOptions(runRef))
  return (
    <QueryState query={blocks} pending={<Skeleton label="Loading blocks" />}>
      {(data) => <BlocksList blocks={data.blocks} />}
    </QueryState>
  )
}

export function RunView({ runRef }: { runRef: RunRef }) {
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(RUN_TABS).withDefault('checkpoint'))
  const detail = useQuery(runDetailQueryOptions(runRef))
  const queryClient = useQueryClient()
  const { org, namespace, agent, runId } = runRef
  useEffect(() => {
    void queryClient.prefetchQuery(
      TAB_QUERY[tab]({ org, namespace, agent, runId }) as Parameters<typeof queryClient.prefetchQuery>[0],
    )
  }, [queryClient, tab, org, namespace, agent, runId])

  if (detail.isPending) {
    return (
      <div className="panel stack" aria-busy="true" aria-label="Loading run">
        <Skeleton width="40%" height={22} />
        <Skeleton />
        <Skeleton />
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
  return (
    <div className="stack">
      {detail.isError ? <ErrorBanner error={detail.error} onRetry={() => detail.refetch()} stale /> : null}
      <RunHeader detail={detail.data} actions={<ExportButton runRef={runRef} />} />
      <Tabs
        label="Run views"
        tabs={RUN_TABS}
        selected={tab}
        onSelect={(t) => void setTab(t)}
        panelId="run-tabpanel"
        labelOf={(t) => TAB_LABELS[t]}
        countOf={(t) => {
          const c = TAB_COUNTS[t]
          return c ? counts[c] : undefined
        }}
      />
      <div role="tabpanel" id="run-tabpanel" aria-labelledby={`tab-${tab}`} aria-label={TAB_LABELS[tab]}>
        {tab === 'checkpoint' ? <CheckpointTab runRef={runRef} /> : null}
        {tab === 'timeline' ? <TimelineTab runRef={runRef} /> : null}
        {tab === 'conversation' ? <ConversationTab runRef={runRef} /> : null}
        {tab === 'memories' ? <MemoriesTab runRef={runRef} /> : null}
        {tab === 'searches' ? <SearchesTab runRef={runRef} /> : null}
        {tab === 'blobs' ? <BlobsTab runRef={runRef} /> : null}
        {tab === 'audit' ? <AuditLog runRef={runRef} /> : null}
        {tab === 'blocks' ? <BlocksTab runRef={runRef} /> : null}
      </div>
    </div>
  )
}
