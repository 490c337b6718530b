'use client'

import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { previewUndoRequest, recentBatchesQueryOptions, runUndoRequest } from '@/lib/api-client/batches'
import type { BatchRecord } from '@/lib/batch/types'
import { links } from '@/lib/links'
import { RefusalBanner } from '../editor/refusal-banner'
import { usePermissions } from '../editor/use-permissions'
import { WriteDialog } from '../editor/write-dialog'
import { Button } from '../ui/button'
import { TimeAgo } from '../ui/time-ago'
import { PreviewTable, ResultsTable } from './batch-tables'
import { ConfirmByCount, IncludeRunning, OutcomeCounts, useCountConfirm, usePreviewThenRun } from './batch-steps'
import styles from './batch.module.css'

const short = (id: string) => id.slice(0, 8)

/** What a kept batch did, in a line: "restore as of 02:10 · 12 done, 1 conflict". */
function countsText(b: BatchRecord): string {
  const parts = (['done', 'conflict', 'skipped', 'error'] as const)
    .filter((o) => b.counts[o] > 0)
    .map((o) => `${b.counts[o]} ${o}`)
  return parts.length ? parts.join(', ') : 'nothing matched'
}

function actionText(b: BatchRecord): string {
  if (b.action === 'undo') return `undo of batch ${b.undoes ? short(b.undoes) : '?'}`
  if (b.action === 'restore' && b.request?.before)
    return `restore as of ${b.request.before.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`
  return b.action
}

/** The newest batches (and undos) with their outcome; an operator can take one back. */
export function RecentBatches() {
  const { canWrite } = usePermissions()
  const query = useQuery(recentBatchesQueryOptions())
  const [undoing, setUndoing] = useState<BatchRecord | null>(null)
  const batches = query.data?.batches ?? []
  if (batches.length === 0) return null
  return (
    <details className={`panel ${styles.recent}`} data-testid="recent-batches">
      <summary>
        Recent batches <span className="muted small">({batches.length === 5 ? 'latest 5' : batches.length})</span>
      </summary>
      <ul className={styles.recentList}>
        {batches.map((b) => (
          <li key={b.batchId} className={styles.recentItem} data-batch={b.batchId}>
            <span>
              <strong>{actionText(b)}</strong> <span className="mono small">{short(b.batchId)}</span>
            </span>
            <span className="small muted">
              <TimeAgo iso={b.at} /> by {b.actor} · {countsText(b)}
            </span>
            <span className={`small ${styles.recentReason}`} title={b.reason}>
              {b.reason}
            </span>
            <span className={styles.actions}>
              <a className="small" href={links.audit({ batchId: b.batchId })}>
                Audit
              </a>
              {b.undoneBy ? (
                <span className="small muted">undone by {short(b.undoneBy)}</span>
              ) : canWrite && b.counts.done > 0 ? (
                <Button
                  size="small"
                  onClick={() => setUndoing(b)}
                  aria-label={`Undo batch ${short(b.batchId)} (${actionText(b)})`}
                >
                  Undo…
                </Button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {undoing ? <UndoDialog batch={undoing} onClose={() => setUndoing(null)} /> : null}
    </details>
  )
}

/** Undo of a kept batch: a dry run first, then a reason and the count typed to confirm. */
function UndoDialog({ batch, onClose }: { batch: BatchRecord; onClose: () => void }) {
  const [force, setForce] = useState(false)
  const hintId = useId()
  const { preview, run, refusal, result } = usePreviewThenRun(
    (f: boolean) => previewUndoRequest(batch.batchId, f),
    ({ token, reason: why }: { token: string; reason: string }) => runUndoRequest(batch.batchId, force, token, why),
  )
  useEffect(() => {
    preview.mutate(false)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const items = preview.data?.items ?? []
  const toWrite = items.filter((i) => i.action !== 'skip').length
  const moved = items.filter((i) => i.why?.startsWith('moved')).length
  const running = items.filter((i) => i.why === 'running').length
  const confirm = useCountConfirm(toWrite)
  const ready = !!preview.data && toWrite > 0 && confirm.confirmed && !run.isPending
  const hint = result
    ? 'Done.'
    : preview.data && toWrite > 0
      ? confirm.missing.length
        ? `To undo: ${confirm.missing.join(' and ')}.`
        : `Ready to undo ${toWrite} run${toWrite === 1 ? '' : 's'}.`
      : ''
  return (
    <WriteDialog
      title={`Undo batch ${short(batch.batchId)}`}
      wide
      onClose={onClose}
      lead={
        <p className={`small muted ${styles.lead}`}>
          {actionText(batch)} by {batch.actor}: &ldquo;{batch.reason}&rdquo;. Each block this batch wrote and nobody has
          written since gets back the content it had before the batch, as a new version. A block written after the batch
          is left alone (a conflict).
        </p>
      }
      refusal={<RefusalBanner refusal={refusal} />}
      hint={hint}
      hintId={hintId}
      cancelLabel={result ? 'Close' : 'Cancel'}
      confirm={
        !result && preview.data && toWrite > 0
          ? {
              label: run.isPending ? 'Undoing…' : `Undo ${toWrite} checkpoint${toWrite === 1 ? '' : 's'}`,
              variant: 'danger',
              disabled: !ready,
              onConfirm: () => preview.data && run.mutate({ token: preview.data.token, reason: confirm.reason.trim() }),
            }
          : undefined
      }
    >
      {preview.isPending ? (
        <p className="small" role="status" aria-live="polite">
          Reading the blocks this batch wrote…
        </p>
      ) : null}
      {preview.data && !result ? (
        <>
          <p role="status" aria-live="polite" className={styles.lead}>
            <strong>{toWrite}</strong> of {items.length} item{items.length === 1 ? '' : 's'} to take back
            {moved ? `; ${moved} written since the batch (left alone)` : ''}
            {running ? `; ${running} still running (skipped)` : ''}
            {items.length - toWrite - moved - running > 0
              ? `; ${items.length - toWrite - moved - running} the batch did not write`
              : ''}
            .
          </p>
          {running || force ? (
            <IncludeRunning
              checked={force}
              disabled={preview.isPending || run.isPending}
              onChange={(checked) => {
                setForce(checked)
                confirm.setTyped('')
                preview.mutate(checked)
              }}
              overwrites="the undo"
            />
          ) : null}
          {items.length ? (
            <PreviewTable items={items} caption="Dry run of the undo: nothing has been written yet." />
          ) : null}
          <ConfirmByCount toWrite={toWrite} verb="undo" confirm={confirm} />
        </>
      ) : null}
      {run.isPending && !result ? (
        <p className="small" role="status" aria-live="polite">
          Undoing {toWrite} run{toWrite === 1 ? '' : 's'}, one at a time; each write is checked against the version the
          batch wrote.
        </p>
      ) : null}
      {result ? (
        <>
          <OutcomeCounts items={result.items} />
          <ResultsTable items={result.items} />
          <p className={`small muted ${styles.lead}`}>
            Undo <span className="mono">{result.batchId}</span> of batch <span className="mono">{result.undoes}</span>:
            every write is in its run&apos;s audit log with the undo&apos;s id.
          </p>
          {result.warning ? <p className="small">{result.warning}</p> : null}
        </>
      ) : null}
    </WriteDialog>
  )
}
