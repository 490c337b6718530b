import os from 'node:os'
import { randomUUID } from 'node:crypto'
import { classifyClickHouseError } from '../clickhouse/query'
import { AppError, notFound } from '../errors'
import { recordAudit, type AuditAction } from '../loom/audit'
import type { BlockRef } from '../loom/identity'
import { checkExpectedVersion, writeBlock, type BlockContent, type WriteResult } from '../loom/working-memory'
import { toBlock, type WmRow } from '../tables/working-memory'
import { refuseActiveRun } from './active-run'
import { findVersion } from './find-version'
import type { OperatorWriteResult } from '../endpoints/blocks'
export type { OperatorWriteResult } from '../endpoints/blocks'

export const CONSOLE_SOURCE_TRACE = `loom-runs-console@${os.hostname()}/pid-${process.pid}`

export type OperatorWrite = {
  ref: BlockRef
  operator: string
  reason: string
  expectedVersion: string
  force?: boolean
  /** Set when the write is one item of a batch (POST /api/batches); the audit row carries it. */
  batchId?: string
}

/** The new content of an existing block, or a refusal (thrown) specific to the action. */
type Change = (latest: WmRow) => BlockContent | Promise<BlockContent>

/**
 * One operator write. The checks run in the order the API promises (no block: 404; the action's
 * own refusals; a stale version: 409 conflict; a running run: 409 run_active) on the single read
 * of the block's latest row, under its lock, so none of them can go stale before the insert.
 */
async function commit(
  w: OperatorWrite,
  action: AuditAction,
  change: Change,
  restoredVersion?: string,
): Promise<OperatorWriteResult> {
  const ctx = { actor: `operator:${w.operator}`, sourceTrace: CONSOLE_SOURCE_TRACE }
  const result = await writeBlock(
    w.ref,
    ctx,
    async (latest) => {
      if (!latest) throw notFound(`No block ${w.ref.blockKey} in run ${w.ref.runId} for this user/session`)
      const next = await change(latest)
      checkExpectedVersion(w.expectedVersion, latest)
      await refuseActiveRun(w.ref, latest, w.force)
      return next
    },
    { verify: true },
  )
  const auditId = randomUUID()
  await writeAudit(result, {
    at: new Date(result.row.updated_at),
    operator: w.operator,
    action,
    reason: w.reason,
    block: w.ref,
    beforeVersion: result.previous?.version ?? null,
    afterVersion: result.row.version,
    beforeContent: result.previous && result.previous.is_deleted === 0 ? result.previous.content : '',
    afterContent: result.row.content,
    requestId: auditId,
    ...(w.batchId ? { batchId: w.batchId } : {}),
    ...(restoredVersion ? { restoredVersion } : {}),
  })
  const confirmed = result.confirmed ?? true
  return {
    block: toBlock(result.row),
    confirmed,
    auditId,
    ...(confirmed
      ? {}
      : {
          warning:
            'Another writer tied or overtook this write: FINAL now returns a different row. Check the block before relying on it.',
          current: result.finalRow ? toBlock(result.finalRow) : null,
        }),
  }
}

/** The audit row follows the working-memory row; if it fails, say exactly what landed. */
async function writeAudit(result: WriteResult, input: Parameters<typeof recordAudit>[0]) {
  try {
    await recordAudit(input)
  } catch (err) {
    const e = classifyClickHouseError(err)
    throw new AppError(
      e.code === 'internal' ? 'unavailable' : e.code,
      `The write landed as version ${result.row.version}, but its audit row could not be written: ${e.message}`,
      { cause: err },
    )
  }
}

/** Edit: a new version with the operator's content. */
export function editBlock(w: OperatorWrite & { content: string }) {
  return commit(w, 'edit', () => ({ content: w.content, isDeleted: false }))
}

/** Clear: a tombstone, so the next resume() returns None. */
export function clearBlock(w: OperatorWrite) {
  return commit(w, 'clear', () => ({ content: '', isDeleted: true }))
}

/** Restore: an earlier version's content back as a new version. */
export function restoreBlock(w: OperatorWrite & { version: string }) {
  return commit(
    w,
    'restore',
    async () => {
      const earlier = await findVersion(w.ref, w.version)
      if (!earlier) {
        throw notFound(
          `Version ${w.version} of this block is not in the captured history or the unmerged rows; it cannot be restored`,
        )
      }
      if (earlier.is_deleted === 1) {
        throw new AppError('invalid', `version: ${w.version} is a tombstone; use clear to empty the block`, {
          details: { field: 'version' },
        })
      }
      return { content: earlier.content, isDeleted: false }
    },
    w.version,
  )
}
