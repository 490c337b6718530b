'use client'

import { useState } from 'react'
import { restoreBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { ContentDiff } from './content-diff'
import { Dialog } from '../ui/dialog'
import { RefusalBanner } from './refusal-banner'
import { refusalOf, useBlockWrite, type WriteRefusal } from './use-block-write'

/** Restore: an earlier version's content back as a new version, checked against the current one. */
export function RestoreDialog({ target, current, from, onClose }: { target: BlockTarget; current: Block; from: Block; onClose: () => void }) {
  const [reason, setReason] = useState('')
  const [force, setForce] = useState(false)
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const write = useBlockWrite(target.run, (b: Parameters<typeof restoreBlockRequest>[1]) => restoreBlockRequest(target, b), (r) => `Restored v${from.version} as version ${r.block.version}`)
  return (
    <Dialog title={`Restore v${from.version}`} onClose={onClose} wide>
      <p style={{ margin: 0 }}>
        Writes the content of v{from.version} as version {`${BigInt(current.version) + 1n}`}; the next <code>resume()</code> returns it.
      </p>
      <ContentDiff before={current.isDeleted ? '' : current.content} after={from.content} label={`Diff from v${current.version} to restored v${from.version}`} />
      <RefusalBanner refusal={refusal} force={force} onForce={setForce} />
      <label className="field">
        Reason (recorded in the audit log)
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} />
      </label>
      <div className="row">
        <span className="spacer" />
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={reason.trim() === '' || write.isPending}
          onClick={() =>
            write.mutate(
              { version: from.version, expectedVersion: current.version, reason: reason.trim(), ...(force ? { force: true } : {}) },
              { onSuccess: () => onClose(), onError: (e) => setRefusal(refusalOf(e)) },
            )
          }
        >
          {write.isPending ? 'Restoring…' : `Restore v${from.version}`}
        </button>
      </div>
    </Dialog>
  )
}
