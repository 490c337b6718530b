'use client'

import { useQuery } from '@tanstack/react-query'
import type { RunRef } from '@/lib/loom/identity'
import { runAuditQueryOptions } from '@/lib/api-client/run-tabs'
import { ListCutNotice } from '../ui/list-cut-notice'
import { ContentDiff } from '../editor/content-diff'
import { EmptyNote } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { Skeleton } from '../ui/skeleton'
import { Tag } from '../ui/badge'
import { TimeAgo } from '../ui/time-ago'
import { BatchTags } from '../audit/batch-tags'
import styles from './audit-log.module.css'

/** Every operator action on the run: who, when, why, and what it changed. */
export function AuditLog({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runAuditQueryOptions(runRef))
  return (
    <QueryState
      query={q}
      pending={<Skeleton label="Loading audit log" />}
      isEmpty={(data) => !data.installed || data.entries.length === 0}
      empty={(data) => (
        <EmptyNote>
          {data.installed
            ? 'No operator has edited, cleared or restored a block of this run.'
            : 'The audit table is not installed on this ClickHouse.'}
        </EmptyNote>
      )}
    >
      {(data) => (
        <>
          <ListCutNotice cuts={data.cuts} nouns={{ entries: 'audit entries (newest first)' }} />
          <ol className={styles.list} aria-label="Audit log">
            {data.entries.map((e, i) => (
              <li key={`${e.at}-${i}`} className={`panel ${styles.entry}`}>
                <div className="row">
                  <Tag tone={e.action === 'clear' ? 'warning' : 'neutral'}>{e.action}</Tag>
                  <strong>{e.operator}</strong>
                  <span className="mono small">
                    {e.restoredVersion
                      ? `${e.blockKey}: restore v${e.restoredVersion} as v${e.afterVersion} (replacing v${e.beforeVersion})`
                      : `${e.blockKey} v${e.beforeVersion} → v${e.afterVersion}`}
                  </span>
                  {e.userId || e.sessionId ? (
                    <span className="small muted mono">
                      user {e.userId || '∅'} · session {e.sessionId || '∅'}
                    </span>
                  ) : null}
                  <BatchTags batchId={e.batchId} undoes={e.undoes} />
                  <span className="spacer" />
                  <span className="small muted">
                    <TimeAgo iso={e.at} />
                  </span>
                </div>
                <p className={styles.reason}>
                  <span className="muted small">Reason: </span>
                  {e.reason}
                </p>
                <details>
                  <summary>What it changed</summary>
                  <ContentDiff
                    before={e.beforeContent}
                    after={e.afterContent}
                    label={`Change of audit entry ${i + 1}`}
                  />
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </QueryState>
  )
}
