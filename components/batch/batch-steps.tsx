'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { runKeys } from '@/lib/api-client/keys'
import type { BatchAction } from '@/lib/api-client/batches'
import type { BatchOutcome } from '@/lib/batch/types'
import { refusalOf, type WriteRefusal } from '../editor/use-block-write'
import { ReasonField } from '../editor/write-dialog'
import { Tag } from '../ui/badge'
import { BATCH_STATE_TONE } from './batch-tables'
import styles from './batch.module.css'
import { bindText } from '../ui/bind-text'

const OUTCOMES: readonly BatchOutcome[] = ['done', 'conflict', 'skipped', 'error']

/** The box that lets a batch or an undo write runs that are still running too, saying what it risks. */
export function IncludeRunning({
  checked,
  disabled,
  onChange,
  overwrites,
}: {
  checked: boolean
  disabled: boolean
  onChange: (checked: boolean) => void
  /** What a still-running run's next checkpoint may overwrite. */
  overwrites: string
}) {
  return (
    <label className={`small ${styles.force}`}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />{' '}
      Include runs that are still running (their next checkpoint may overwrite {overwrites})
    </label>
  )
}

/**
 * A batch's two requests: the dry run, then the write. Either clears the refusal as it starts and keeps
 * the server's when refused; the write's result stays to show. Whatever the write did, the list and every
 * run page may now be out of date; the result need not wait for their refetch.
 */
export function usePreviewThenRun<Preview, PreviewVars, Result, RunVars>(
  previewFn: (vars: PreviewVars) => Promise<Preview>,
  runFn: (vars: RunVars) => Promise<Result>,
) {
  const qc = useQueryClient()
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const [result, setResult] = useState<Result | null>(null)
  const preview = useMutation<Preview, Error, PreviewVars>({
    mutationFn: previewFn,
    onMutate: () => setRefusal(null),
    onError: (e) => setRefusal(refusalOf(e)),
  })
  const run = useMutation<Result, Error, RunVars>({
    mutationFn: runFn,
    onMutate: () => setRefusal(null),
    onSuccess: (res) => setResult(res),
    onError: (e) => setRefusal(refusalOf(e)),
    onSettled: () => void qc.invalidateQueries({ queryKey: runKeys.all }),
  })
  return { preview, run, refusal, result, setResult }
}

/**
 * The reason and the typed number of runs that confirm a write of `toWrite` runs, and what is still
 * missing, in the words of the dialog's hint (`sayMismatch`: a wrong number is named as such).
 */
export function useCountConfirm(toWrite: number, { sayMismatch = false } = {}) {
  const [reason, setReason] = useState('')
  const [typed, setTyped] = useState('')
  const countText = String(toWrite)
  const missing = [
    reason.trim() === '' && 'give a reason',
    typed.trim() !== countText &&
      (sayMismatch && typed !== '' ? 'the typed number does not match yet' : `type ${countText} to confirm`),
  ].filter((m): m is string => typeof m === 'string')
  return { reason, setReason, typed, setTyped, missing, confirmed: missing.length === 0 }
}

export type CountConfirm = ReturnType<typeof useCountConfirm>

/** What a dry run that leaves nothing to write says, by what was asked. */
const NOTHING_TO_WRITE: Record<BatchAction | 'undo', string> = {
  restore: 'Nothing to write: every matched run is skipped.',
  clear: 'Nothing to write: every matched run is skipped.',
  undo: 'Nothing to take back: every block this batch wrote has moved on, or it wrote none.',
}

/** The fields of a count confirmation for a write of `toWrite` runs, or why there is nothing to confirm. */
export function ConfirmByCount({
  toWrite,
  verb,
  confirm,
}: {
  toWrite: number
  verb: BatchAction | 'undo'
  confirm: CountConfirm
}) {
  if (toWrite === 0) return <p className="small muted">{NOTHING_TO_WRITE[verb]}</p>
  return (
    <>
      <ReasonField
        value={confirm.reason}
        onChange={confirm.setReason}
        label="Reason (recorded in the audit log of every run)"
      />
      <label className="field">
        Type the number of runs to {verb} to confirm: <strong>{String(toWrite)}</strong>
        <input {...bindText(confirm.typed, confirm.setTyped)} inputMode="numeric" autoComplete="off" />
      </label>
    </>
  )
}

/** How many writes of a batch or an undo ended in each outcome, and anything more to say of them. */
export function OutcomeCounts({ items, children }: { items: { outcome: BatchOutcome }[]; children?: ReactNode }) {
  return (
    <ul className={styles.counts} aria-label="Outcomes" role="status">
      {OUTCOMES.map((o) => (
        <li key={o}>
          <Tag tone={BATCH_STATE_TONE[o]}>{o}</Tag> {items.filter((i) => i.outcome === o).length}
        </li>
      ))}
      {children}
    </ul>
  )
}
