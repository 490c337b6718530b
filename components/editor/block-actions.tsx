'use client'

import { useId, useState } from 'react'
import type { Block } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'
import { CheckpointEditor } from './checkpoint-editor'
import { ClearDialog } from './clear-dialog'
import { RestoreDialog } from './restore-dialog'
import { usePermissions } from './use-permissions'
import { Button, buttonClass } from '../ui/button'
import { Tag } from '../ui/badge'
import styles from './block-actions.module.css'

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
  const restoreNote = useId()
  const clearNote = useId()
  if (!block) return null
  if (!canWrite) {
    return readOnly ? <Tag title="LOOM_RUNS_READ_ONLY=1">read-only</Tag> : null
  }
  const target = { run: runRef, ...choice }
  const canRestore = !!picked && !picked.isDeleted && picked.version !== block.version
  // Why a control is off, in words next to it (a tooltip alone is invisible to most operators).
  const restoreWhy = canRestore
    ? null
    : !picked
      ? 'Restore is off: pick the version to put back as B in the Versions table.'
      : picked.isDeleted
        ? `Restore is off: B is v${picked.version}, a tombstone. Pick an earlier version as B in the Versions table to put it back.`
        : `Restore is off: B is v${picked.version}, the current version. Pick an earlier version as B in the Versions table to put it back.`
  const clearWhy = block.isDeleted
    ? `Clear is off: the block is already cleared (v${block.version} is a tombstone).`
    : null
  return (
    <>
      <Button variant="primary" onClick={() => setOpen('edit')}>
        Edit
      </Button>
      <button
        type="button"
        className={buttonClass()}
        disabled={!canRestore}
        title={canRestore ? `Write v${picked!.version}'s content as a new version` : undefined}
        aria-describedby={restoreWhy ? restoreNote : undefined}
        onClick={() => setOpen('restore')}
      >
        {canRestore ? `Restore v${picked!.version}` : 'Restore…'}
      </button>
      <Button
        variant="danger"
        disabled={block.isDeleted}
        aria-describedby={clearWhy ? clearNote : undefined}
        onClick={() => setOpen('clear')}
      >
        Clear
      </Button>
      {restoreWhy || clearWhy ? (
        <p className={`small muted flush ${styles.why}`}>
          {clearWhy ? <span id={clearNote}>{clearWhy} </span> : null}
          {restoreWhy ? <span id={restoreNote}>{restoreWhy}</span> : null}
        </p>
      ) : null}
      {open === 'edit' ? <CheckpointEditor target={target} block={block} onClose={() => setOpen(null)} /> : null}
      {open === 'clear' ? <ClearDialog target={target} block={block} onClose={() => setOpen(null)} /> : null}
      {open === 'restore' && picked ? (
        <RestoreDialog target={target} current={block} from={picked} onClose={() => setOpen(null)} />
      ) : null}
    </>
  )
}
