'use client'

import { useQuery } from '@tanstack/react-query'
import { parseAsStringLiteral, useQueryState } from 'nuqs'
import type { RunRef } from '@/lib/loom/identity'
import { runBlocksQueryOptions, runDetailQueryOptions } from '../data/run-queries'
import { ErrorBanner } from '../ui/error-banner'
import { BlocksList } from './blocks-list'
import { RunHeader } from './run-header'

const TABS = ['blocks'] as const
const TAB_LABELS: Record<(typeof TABS)[number], string> = { blocks: 'Blocks' }

export function RunView({ runRef }: { runRef: RunRef }) {
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(TABS).withDefault('blocks'))
  const detail = useQuery(runDetailQueryOptions(runRef))
  const blocks = useQuery(runBlocksQueryOptions(runRef))

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
  return (
    <div className="stack">
      {detail.isError ? <ErrorBanner error={detail.error} onRetry={() => detail.refetch()} stale /> : null}
      <RunHeader detail={detail.data} />
      <div className="tabs" role="tablist" aria-label="Run views">
        {TABS.map((t) => (
          <button key={t} role="tab" type="button" aria-selected={tab === t} onClick={() => setTab(t)}>
            {TAB_LABELS[t]}
            {t === 'blocks' ? <span className="count">{counts.blocks}</span> : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TAB_LABELS[tab]}>
        {tab === 'blocks' ? (
          blocks.isError ? (
            <ErrorBanner error={blocks.error} onRetry={() => blocks.refetch()} />
          ) : blocks.isPending ? (
            <div className="skeleton" />
          ) : (
            <BlocksList blocks={blocks.data.blocks} />
          )
        ) : null}
      </div>
    </div>
  )
}
