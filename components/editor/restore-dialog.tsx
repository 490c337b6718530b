'use client'

import { restoreBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { ContentDiff } from './content-diff'
import { RefusalBanner } from './refusal-banner'
import { ReplayNote } from './replay-note'
import { useWriteForm } from './use-block-write'
import { WriteDialog } from './write-dialog'
import styles from './write-dialog.module.css'

/** Restore: an earlier version's content back as a new version, checked against the current one. */
export function RestoreDialog({
  target,
  current,
  from,
  onClose,
}: {
  target: BlockTarget
  current: Block
  from: Block
  onClose: () => void
}) {
  const { reason, setReason, force, setForce, refusal, write, submit } = useWriteForm(
    target.run,
    (b: Parameters<typeof restoreBlockRequest>[1]) => restoreBlockRequest(target, b),
    (r) => `Restored v${from.version} as version ${r.block.version}`,
  )
  return (
    <WriteDialog
      title={`Restore v${from.version}`}
      wide
      onClose={onClose}
      lead={
        <>
          <p className={styles.lead}>
            Writes the content of v{from.version} as version {`${BigInt(current.version) + 1n}`}; the next{' '}
            <code>resume()</code> returns it.
          </p>
          <ReplayNote target={target} toVersion={from.version} />
          <ContentDiff
            before={current.isDeleted ? '' : current.content}
            after={from.content}
            label={`Diff from v${current.version} to restored v${from.version}`}
          />
        </>
      }
      refusal={<RefusalBanner refusal={refusal} force={force} onForce={setForce} />}
      reason={{ value: reason, onChange: setReason }}
      confirm={{
        label: write.isPending ? 'Restoring…' : `Restore v${from.version}`,
        variant: 'primary',
        disabled: reason.trim() === '' || write.isPending,
        onConfirm: () => submit({ version: from.version, expectedVersion: current.version }, () => onClose()),
      }}
    />
  )
}
