import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { insertRows } from './insert'
import { param, sql } from '../clickhouse/sql'
import { toChTime } from '../tables/time'
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
  /** The batch the write belonged to (POST /api/batches); absent for a single write. */
  batchId?: string
  /** A restore: the version whose content it put back. */
  restoredVersion?: string
}

const UINT64 = /^\d+$/

const COLUMN_TTL_MS = 60_000
/** Columns of the audit table added after its first release (start-up and the init command add them). */
export type AuditLateColumn = 'batch_id' | 'restored_version'
const LATE_COLUMNS: readonly AuditLateColumn[] = ['batch_id', 'restored_version']

const g = globalThis as typeof globalThis & {
  __loomRunsAuditColumns?: { at: number; table: string; present: Set<string> }
}

/**
 * Which of the late columns the audit table has. A remote install nobody re-initialised may still
 * lack them: reads then fill in the defaults ("not in a batch", "restored version unknown"), and
 * batch writes are refused rather than half-audited. Kept for a minute while any is missing.
 */
export async function auditLateColumns(signal?: AbortSignal): Promise<Set<string>> {
  const table = tableNames().audit
  const cached = g.__loomRunsAuditColumns
  if (
    cached &&
    cached.table === table &&
    (cached.present.size === LATE_COLUMNS.length || Date.now() - cached.at < COLUMN_TTL_MS)
  )
    return cached.present
  const [database, name] = table.split('.')
  const rows = await selectRows(
    sql`SELECT name FROM system.columns
     WHERE database = ${param('database', 'String', database)} AND table = ${param('table', 'String', name)}
       AND name IN ${param('names', 'Array(String)', [...LATE_COLUMNS])}`,
    z.object({ name: z.string() }),
    { signal },
  )
  const present = new Set(rows.map((r) => r.name))
  g.__loomRunsAuditColumns = { at: Date.now(), table, present }
  return present
}

/** Whether the audit table has its `batch_id` column. */
export async function auditHasBatchColumn(signal?: AbortSignal): Promise<boolean> {
  return (await auditLateColumns(signal)).has('batch_id')
}

/** Values for the late columns the table has (a batch write checked for batch_id before it began). */
async function lateValues(input: AuditInput): Promise<Record<string, string>> {
  const present = await auditLateColumns()
  const out: Record<string, string> = {}
  if (input.batchId !== undefined || present.has('batch_id')) out.batch_id = input.batchId ?? ''
  if (present.has('restored_version')) out.restored_version = input.restoredVersion ?? ''
  return out
}

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
      ...(await lateValues(input)),
    },
  ])
}
