'use client'

import { useQuery } from '@tanstack/react-query'
import { blockDetailQueryOptions } from '@/lib/api-client/run-detail'
import { editBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { QueryState } from '../ui/query-state'
import { ContentDiff } from './content-diff'
import { RefusalBanner } from './refusal-banner'
import { useWriteForm } from './use-block-write'
import { WriteDialog } from './write-dialog'
import styles from './write-dialog.module.css'

type Source = { userId: string; sessionId: string; blockKey: string; version: string; under: string }

/**
 * A near miss's way out: the checkpoint another identity of the same run wrote, copied into this one as a
 * new version (an audited edit, checked against the version shown), so the next resume here continues
 * from it instead of redoing its work.
 */
export function CopyDialog({
  target,
  current,
  from,
  here,
  onClose,
}: {
  target: BlockTarget
  current: Block
  from: Source
  here: string
  onClose: () => void
}) {
  const source = useQuery(blockDetailQueryOptions(target.run, from))
  const { reason, setReason, force, setForce, refusal, write, submit } = useWriteForm(
    target.run,
    (b: Parameters<typeof editBlockRequest>[1]) => editBlockRequest(target, b),
    (r) => `Copied ${from.under}'s checkpoint as version ${r.block.version}`,
    `Copy v${from.version} from ${from.under} after a near miss`,
  )
  const block = source.data?.block ?? null
  const usable = !!block && !block.isDeleted
  const next = `${BigInt(current.version) + 1n}`
  return (
    <WriteDialog
      title={`Copy v${from.version} from ${from.under}`}
      wide
      onClose={onClose}
      lead={
        <QueryState query={source} pending={<p className={styles.lead}>Reading {from.under}&apos;s checkpoint…</p>}>
          {() =>
            usable ? (
              <>
                <p className={styles.lead}>
                  Writes the content of v{block.version} under {from.under} as version {next} under {here}; the next{' '}
                  <code>resume()</code> as {here} returns it.
                  {block.version !== from.version
                    ? ` ${from.under} has moved on since this page loaded: v${block.version} is its latest, and that is what is copied.`
                    : ''}
                </p>
                <ContentDiff
                  before={current.isDeleted ? '' : current.content}
                  after={block.content}
                  label={`Diff from v${current.version} under ${here} to v${block.version} under ${from.under}`}
                />
              </>
            ) : (
              <p className={styles.lead}>
                There is nothing to copy: {from.under}{' '}
                {block ? `is cleared (v${block.version} is a tombstone)` : 'has no such block any more'}.
              </p>
            )
          }
        </QueryState>
      }
      refusal={<RefusalBanner refusal={refusal} force={force} onForce={setForce} />}
      reason={{ value: reason, onChange: setReason }}
      confirm={{
        label: write.isPending ? 'Copying…' : `Copy as v${next}`,
        variant: 'primary',
        disabled: !usable || reason.trim() === '' || write.isPending,
        onConfirm: () => block && submit({ content: block.content, expectedVersion: current.version }, () => onClose()),
      }}
    />
  )
}
