'use client'

import { useQuery } from '@tanstack/react-query'
import type { RunRef } from '@/lib/loom/identity'
import { runAuditQueryOptions } from '@/lib/api-client/run-tabs'
import { ListCutNotice } from '../ui/list-cut-notice'
import { ContentDiff } from '../editor/content-diff'
import { ErrorBanner } from '../ui/error-banner'
import { TimeAgo } from '../ui/time-ago'

/** Every operator action on the run: who, when, why, and what it changed. */
export function AuditLog({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runAuditQueryOptions(runRef))
  if (q.isPending) return <div className="skeleton" aria-label="Loading audit log" />
  if (q.isError) return <ErrorBanner error={q.error} onRetry={() => q.refetch()} />
  if (!q.data.installed) return <div className="panel empty">The audit table is not installed on this ClickHouse.</div>
  if (q.data.entries.length === 0) return <div className="panel empty">No operator has edited, cleared or restored a block of this run.</div>
  return (
    <>
      <ListCutNotice cuts={q.data.cuts} nouns={{ entries: 'audit entries (newest first)' }} />
      <ol className="stack audit-list" aria-label="Audit log" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {q.data.entries.map((e, i) => (
          <li key={`${e.at}-${i}`} className="panel stack" style={{ gap: 6 }}>
            <div className="row">
              <span className={`tag ${e.action === 'clear' ? 'tag-warn' : ''}`}>{e.action}</span>
              <strong>{e.operator}</strong>
              <span className="mono small">
                {e.blockKey} v{e.beforeVersion} → v{e.afterVersion}
              </span>
              {e.userId || e.sessionId ? (
                <span className="small muted mono">
                  user {e.userId || '∅'} · session {e.sessionId || '∅'}
                </span>
              ) : null}
              {e.batchId ? (
                <span className="tag" title={`Batch ${e.batchId}`}>
                  batch <span className="mono">{e.batchId.slice(0, 8)}</span>
                </span>
              ) : null}
              <span className="spacer" />
              <span className="small muted">
                <TimeAgo iso={e.at} />
              </span>
            </div>
            <p style={{ margin: 0 }}>
              <span className="muted small">Reason: </span>
              {e.reason}
            </p>
            <details>
              <summary>What it changed</summary>
              <ContentDiff before={e.beforeContent} after={e.afterContent} label={`Change of audit entry ${i + 1}`} />
            </details>
          </li>
        ))}
      </ol>
    </>
  )
}
