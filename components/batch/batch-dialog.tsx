'use client'

import { useEffect, useId, useState } from 'react'
import { previewBatchRequest, runBatchRequest, type BatchAction, type BatchRequest } from '@/lib/api-client/batches'
import type { RunsFilters } from '@/lib/runs-search'
import { RefusalBanner } from '../editor/refusal-banner'
import { WriteDialog } from '../editor/write-dialog'
import { Button } from '../ui/button'
import { PreviewTable, ResultsTable } from './batch-tables'
import { ConfirmByCount, IncludeRunning, OutcomeCounts, useCountConfirm, usePreviewThenRun } from './batch-steps'
import styles from './batch.module.css'

/** `datetime-local` value of a time, in the browser's time zone. */
function localInputValue(d: Date) {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
}

function filterText(f: RunsFilters) {
  const parts = Object.entries(f)
    .filter(([, v]) => v !== undefined && (!Array.isArray(v) || v.length > 0))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
  return parts.length ? parts.join(', ') : 'no filter: every run'
}

const VERB: Record<BatchAction, { title: string; doing: string; button: string }> = {
  clear: { title: 'Clear checkpoints', doing: 'Clearing', button: 'Clear' },
  restore: { title: 'Restore checkpoints as of a time', doing: 'Restoring', button: 'Restore' },
}

/**
 * Batch clear or restore over the runs the list's filter matches: a dry-run preview first, then a
 * reason and the number of runs typed to confirm, then one conflict-checked write per run.
 */
export function BatchDialog({
  action,
  filters,
  onClose,
}: {
  action: BatchAction
  filters: RunsFilters
  onClose: () => void
}) {
  const [asOf, setAsOf] = useState(() => localInputValue(new Date(Date.now() - 3600_000)))
  // A clear needs nothing more than the filter; a restore waits for its time.
  const [request, setRequest] = useState<BatchRequest | null>(() => (action === 'clear' ? { filters, action } : null))
  const hintId = useId()
  const verb = VERB[action]

  const { preview, run, refusal, result, setResult } = usePreviewThenRun(
    (r: BatchRequest) => previewBatchRequest(r),
    ({ r, token, reason: why }: { r: BatchRequest; token: string; reason: string }) => runBatchRequest(r, token, why),
  )

  const startPreview = (r: BatchRequest) => {
    setRequest(r)
    setResult(null)
    confirm.setTyped('')
    preview.mutate(r)
  }

  // A clear previews at once, on opening.
  useEffect(() => {
    if (action === 'clear' && request) preview.mutate(request)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const beforeIso = asOf && !Number.isNaN(Date.parse(asOf)) ? new Date(asOf).toISOString() : null
  const items = preview.data?.items ?? []
  const toWrite = items.filter((i) => i.action !== 'skip').length
  const runningSkipped = items.filter((i) => i.why === 'running').length
  const forced = request?.force === true
  const warned = items.filter((i) => i.action !== 'skip' && i.warnings.length > 0).length
  const confirm = useCountConfirm(toWrite, { sayMismatch: true })
  const ready = !!preview.data && toWrite > 0 && confirm.confirmed && !run.isPending
  const conflicted = result?.items.filter((i) => i.outcome === 'conflict') ?? []

  const hint = result
    ? conflicted.length
      ? `${conflicted.length} run${conflicted.length === 1 ? '' : 's'} moved on since the preview and ${conflicted.length === 1 ? 'was' : 'were'} not written.`
      : 'Done.'
    : preview.data && toWrite > 0
      ? confirm.missing.length
        ? `To ${action}: ${confirm.missing.join(' and ')}.`
        : `Ready to ${action} ${toWrite} run${toWrite === 1 ? '' : 's'}.`
      : ''

  return (
    <WriteDialog
      title={verb.title}
      wide
      onClose={onClose}
      lead={
        <>
          <p className={`small muted ${styles.lead}`}>
            Runs matched by the list&apos;s filter ({filterText(filters)})
            {request?.runs
              ? `, narrowed to the ${request.runs.length} conflicted run${request.runs.length === 1 ? '' : 's'}`
              : ''}
            . Each run&apos;s <code>checkpoint</code> block under the run&apos;s own user and session is{' '}
            {action === 'clear'
              ? 'cleared with a tombstone, so its next resume() returns None'
              : 'put back to its latest live version written before the time you choose, as a new version'}
            .
          </p>

          {action === 'restore' && !result ? (
            <div className={styles.actions}>
              <label className="field">
                Restore as of (your local time)
                <input
                  type="datetime-local"
                  value={asOf}
                  onChange={(e) => {
                    setAsOf(e.target.value)
                    // A preview for another time no longer says what would be written.
                    preview.reset()
                  }}
                  step={60}
                />
              </label>
              <Button
                disabled={!beforeIso || preview.isPending || run.isPending}
                onClick={() => beforeIso && startPreview({ filters, action, before: beforeIso, runs: request?.runs })}
              >
                {preview.data ? 'Preview again' : 'Preview'}
              </Button>
              {beforeIso ? <span className="small muted mono">{beforeIso}</span> : null}
            </div>
          ) : null}
        </>
      }
      refusal={
        <>
          <RefusalBanner refusal={refusal} />
          {refusal && request && !run.isPending ? (
            <div className={styles.actions}>
              <Button onClick={() => startPreview(request)}>Preview again</Button>
            </div>
          ) : null}
        </>
      }
      hint={hint}
      hintId={hintId}
      extraAction={
        result && conflicted.length ? (
          <Button
            onClick={() =>
              request &&
              startPreview({
                ...request,
                runs: conflicted.map((i) => ({ org: i.org, namespace: i.namespace, agent: i.agent, runId: i.runId })),
              })
            }
          >
            Retry conflicted ({conflicted.length})
          </Button>
        ) : null
      }
      cancelLabel={result ? 'Close' : 'Cancel'}
      confirm={
        !result && preview.data && toWrite > 0
          ? {
              label: run.isPending
                ? `${verb.doing}…`
                : `${verb.button} ${toWrite} checkpoint${toWrite === 1 ? '' : 's'}`,
              variant: 'danger',
              disabled: !ready,
              onConfirm: () =>
                request && run.mutate({ r: request, token: preview.data.token, reason: confirm.reason.trim() }),
            }
          : undefined
      }
    >
      {preview.isPending ? (
        <p className="small" role="status" aria-live="polite">
          Reading the matched runs&apos; checkpoints…
        </p>
      ) : null}

      {preview.data && !result ? (
        <>
          <p role="status" aria-live="polite" className={styles.lead}>
            <strong>{preview.data.total}</strong> run{preview.data.total === 1 ? '' : 's'} matched:{' '}
            <strong>{toWrite}</strong> to {action}, {preview.data.total - toWrite} skipped
            {runningSkipped ? ` (${runningSkipped} still running)` : ''}.
            {warned ? (
              <>
                {' '}
                <strong className="text-warn">
                  {warned} of those to write carr{warned === 1 ? 'ies' : 'y'} a warning
                </strong>
                : check them below.
              </>
            ) : null}
          </p>
          {runningSkipped || forced ? (
            <IncludeRunning
              checked={forced}
              disabled={preview.isPending || run.isPending}
              onChange={(force) => request && startPreview({ ...request, force })}
              overwrites="what the batch writes"
            />
          ) : null}
          {items.length ? <PreviewTable items={items} caption="Dry run: nothing has been written yet." /> : null}
          <ConfirmByCount toWrite={toWrite} verb={action} confirm={confirm} />
        </>
      ) : null}

      {run.isPending && !result ? (
        <div className="stack" role="status" aria-live="polite">
          <progress className={styles.progress} aria-label={`${verb.doing} ${toWrite} runs`} />
          <span className="small">
            {verb.doing} {toWrite} run{toWrite === 1 ? '' : 's'}, one at a time; each write is checked against the
            version the preview showed.
          </span>
        </div>
      ) : null}

      {result ? (
        <>
          <OutcomeCounts items={result.items}>
            {result.notMatched ? (
              <li className="muted">
                {result.notMatched} previewed run(s) no longer match the filter and were left alone
              </li>
            ) : null}
          </OutcomeCounts>
          <ResultsTable items={result.items} />
          <p className={`small muted ${styles.lead}`}>
            Batch <span className="mono">{result.batchId}</span>: every write is in its run&apos;s audit log with this
            id.
          </p>
        </>
      ) : null}
    </WriteDialog>
  )
}
