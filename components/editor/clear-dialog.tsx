'use client'

import { useId, useState } from 'react'
import { clearBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { RefusalBanner } from './refusal-banner'
import { ReplayNote } from './replay-note'
import { useWriteForm } from './use-block-write'
import { WriteDialog } from './write-dialog'
import styles from './write-dialog.module.css'
import { bindText } from '../ui/bind-text'

/** Clear: a tombstone so the next resume() returns None; the operator types the run_id to confirm. */
export function ClearDialog({ target, block, onClose }: { target: BlockTarget; block: Block; onClose: () => void }) {
  const [typed, setTyped] = useState('')
  const { reason, setReason, force, setForce, refusal, write, submit } = useWriteForm(
    target.run,
    (b: Parameters<typeof clearBlockRequest>[1]) => clearBlockRequest(target, b),
    (r) => `Cleared ${target.blockKey} (tombstone v${r.block.version})`,
  )
  const ok = typed === target.run.runId && reason.trim() !== ''
  const hintId = useId()
  const missing = [
    typed !== target.run.runId && (typed === '' ? 'type the run_id above' : 'the typed run_id does not match yet'),
    reason.trim() === '' && 'give a reason',
  ].filter((m): m is string => typeof m === 'string')
  return (
    <WriteDialog
      title={`Clear ${target.blockKey}`}
      onClose={onClose}
      lead={
        <>
          <p className={styles.lead}>
            This writes a tombstone (version {`${BigInt(block.version) + 1n}`}): the next <code>resume()</code> of this
            run returns <strong>None</strong> and the agent starts from scratch. Earlier versions stay restorable.
          </p>
          <ReplayNote target={target} toVersion={null} />
        </>
      }
      refusal={<RefusalBanner refusal={refusal} force={force} onForce={setForce} />}
      reason={{ value: reason, onChange: setReason }}
      hint={missing.length ? `To clear: ${missing.join(' and ')}.` : 'Ready to clear.'}
      hintId={hintId}
      confirm={{
        label: write.isPending ? 'Clearing…' : 'Clear checkpoint',
        variant: 'danger',
        disabled: !ok || write.isPending,
        onConfirm: () => submit({ expectedVersion: block.version }, () => onClose()),
      }}
    >
      <label className="field">
        Type the run_id to confirm: <code>{target.run.runId}</code>
        <input {...bindText(typed, setTyped)} autoComplete="off" spellCheck={false} />
      </label>
    </WriteDialog>
  )
}
