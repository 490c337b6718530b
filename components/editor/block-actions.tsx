'use client'

import { useState } from 'react'
import type { Block } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { CheckpointEditor } from './checkpoint-editor'
import { ClearDialog } from './clear-dialog'
import { RestoreDialog } from './restore-dialog'
import { usePermissions } from './use-permissions'

type Props = {
  runRef: RunRef
  choice: { blockKey: string; userId: string; sessionId: string }
  /** The block as FINAL returns it now (null when absent under this identity). */
  block: Block | null
  /** The version picked as "B" in the version table: the one Restore would put back. */
  picked: Block | null
}

/** Edit, clear and restore for the selected block; hidden for viewers and in read-only mode. */
export function BlockActions({ runRef, choice, block, picked }: Props) {
  const { canWrite, readOnly } = usePermissions()
  const [open, setOpen] = useState<'edit' | 'clear' | 'restore' | null>(null)
  if (!block) return null
  if (!canWrite) {
    return readOnly ? <span className="tag" title="LOOM_RUNS_READ_ONLY=1">read-only</span> : null
  }
  const target = { run: runRef, ...choice }
  const canRestore = !!picked && !picked.isDeleted && picked.version !== block.version
  return (
    <>
      <button type="button" className="btn btn-primary" onClick={() => setOpen('edit')}>
        Edit
      </button>
      <button
        type="button"
        className="btn"
        disabled={!canRestore}
        title={canRestore ? `Write v${picked!.version}'s content as a new version` : 'Pick an earlier, non-tombstone version as B in the version table'}
        onClick={() => setOpen('restore')}
      >
        {canRestore ? `Restore v${picked!.version}` : 'Restore…'}
      </button>
      <button type="button" className="btn btn-danger" disabled={block.isDeleted} onClick={() => setOpen('clear')}>
        Clear
      </button>
      {open === 'edit' ? <CheckpointEditor target={target} block={block} onClose={() => setOpen(null)} /> : null}
      {open === 'clear' ? <ClearDialog target={target} block={block} onClose={() => setOpen(null)} /> : null}
      {open === 'restore' && picked ? <RestoreDialog target={target} current={block} from={picked} onClose={() => setOpen(null)} /> : null}
    </>
  )
}
