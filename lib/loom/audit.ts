import { insertRows } from '../clickhouse/query'
import { toChTime } from '../clickhouse/time'
import { identityParams, type BlockRef } from './identity'
import { tableNames } from './tables'

/** What an operator did to a block from the console. */
export type AuditAction = 'edit' | 'clear' | 'restore'

export type AuditInput = {
  /** When the action happened (the time written on the working-memory row). */
  at: Date
  /** The operator's name (`alice`, `local`); the working-memory row carries it as actor `operator:<name>`. */
  operator: string
  action: AuditAction
  /** Required by the console; free text. */
  reason: string
  /** The block the action wrote to. */
  block: BlockRef
  /** Latest version before the action (null or '0' when the block did not exist). */
  beforeVersion: string | null
  /** Version of the row the action inserted. */
  afterVersion: string
  /** Content before the action ('' when absent or a tombstone). */
  beforeContent: string
  /** Content after the action ('' for a clear). */
  afterContent: string
  /** Correlates the audit row with the request that made it. */
  requestId: string
}

const UINT64 = /^\d+$/

/** One row in the dashboard's audit table (`tableNames().audit`); every value is bound, none interpolated. */
export async function recordAudit(input: AuditInput): Promise<void> {
  const beforeVersion = input.beforeVersion ?? '0'
  if (!UINT64.test(beforeVersion) || !UINT64.test(input.afterVersion)) {
    throw new Error(`audit versions must be decimal UInt64 strings, got ${beforeVersion} -> ${input.afterVersion}`)
  }
  await insertRows(tableNames().audit, [
    {
      at: toChTime(input.at),
      operator: input.operator,
      action: input.action,
      reason: input.reason,
      ...identityParams(input.block),
      run_id: input.block.runId,
      block_key: input.block.blockKey,
      before_version: beforeVersion,
      after_version: input.afterVersion,
      before_content: input.beforeContent,
      after_content: input.afterContent,
      request_id: input.requestId,
    },
  ])
}
