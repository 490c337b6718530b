'use client'

import { useId, useState } from 'react'
import { clearBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { Dialog } from '../ui/dialog'
import { RefusalBanner } from './refusal-banner'
import { refusalOf, useBlockWrite, type WriteRefusal } from './use-block-write'

/** Clear: a tombstone so the next resume() returns None; the operator types the run_id to confirm. */
export function ClearDialog({ target, block, onClose }: { target: BlockTarget; block: Block; onClose: () => void }) {
  const [typed, setTyped] = useState('')
  const [reason, setReason] = useState('')
  const [force, setForce] = useState(false)
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const write = useBlockWrite(target.run, (b: Parameters<typeof clearBlockRequest>[1]) => clearBlockRequest(target, b), (r) => `Cleared ${target.blockKey} (tombstone v${r.block.version})`)
  const ok = typed === target.run.runId && reason.trim() !== ''
  const whyId = useId()
  const missing = [
    typed !== target.run.runId && (typed === '' ? 'type the run_id above' : 'the typed run_id does not match yet'),
    reason.trim() === '' && 'give a reason',
  ].filter((m): m is string => typeof m === 'string')
  return (
    <Dialog title={`Clear ${target.blockKey}`} onClose={onClose}>
      <p style={{ margin: 0 }}>
        This writes a tombstone (version {`${BigInt(block.version) + 1n}`}): the next <code>resume()</code> of this run returns{' '}
        <strong>None</strong> and the agent starts from scratch. Earlier versions stay restorable.
      </p>
      <RefusalBanner refusal={refusal} force={force} onForce={setForce} />
      <label className="field">
        Type the run_id to confirm: <code>{target.run.runId}</code>
        <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
      </label>
      <label className="field">
        Reason (recorded in the audit log)
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} />
      </label>
      <div className="row">
        <span id={whyId} className="small muted" aria-live="polite">
          {missing.length ? `To clear: ${missing.join(' and ')}.` : 'Ready to clear.'}
        </span>
        <span className="spacer" />
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={!ok || write.isPending}
          aria-describedby={whyId}
          onClick={() =>
            write.mutate(
              { expectedVersion: block.version, reason: reason.trim(), ...(force ? { force: true } : {}) },
              { onSuccess: () => onClose(), onError: (e) => setRefusal(refusalOf(e)) },
            )
          }
        >
          {write.isPending ? 'Clearing…' : 'Clear checkpoint'}
        </button>
      </div>
    </Dialog>
  )
}
