import os from 'node:os'
import { randomUUID } from 'node:crypto'
import { classifyClickHouseError, queryRows } from '../clickhouse/query'
import { AppError, notFound } from '../errors'
import type { Block } from '../api/types'
import { recordAudit, type AuditAction } from '../loom/audit'
import { type BlockRef } from '../loom/identity'
import { runLatestRow } from '../loom/runs'
import { tableNames, source } from '../loom/tables'
import { wmDelete, wmLatestRow, wmRowSchema, wmSet, WM_COLUMNS, type WmRow, type WriteResult } from '../loom/working-memory'
import { toBlock } from '../queries/working-memory'
import { tableExists } from '../queries/schema-presence'

/** A run whose checkpoint moved this recently while it is `running` is probably still being written. */
export const ACTIVE_WINDOW_MS = 5 * 60_000

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

export type OperatorWriteResult = {
  block: Block
  /** False when, after our insert, FINAL returned another row (a tie or a newer write). */
  confirmed: boolean
  warning?: string
  current?: Block | null
  auditId: string
}

function conflict(expected: string, current: WmRow | null) {
  return new AppError(
    'conflict',
    current
      ? `The block moved on since you opened it: you started from version ${expected}, the latest is ${current.version}. Nothing was written.`
      : `The block does not exist any more (you started from version ${expected}). Nothing was written.`,
    { details: { current: current ? toBlock(current) : null } },
  )
}

/** Refuses a write into a run that is still writing its checkpoint, unless forced. */
async function guardActiveRun(w: OperatorWrite, latest: WmRow | null) {
  if (w.force) return
  const run = await runLatestRow(w.ref)
  if (run?.status !== 'running' || !latest) return
  const age = Date.now() - Date.parse(latest.updated_at)
  if (age < ACTIVE_WINDOW_MS) {
    throw new AppError(
      'run_active',
      `The run is still running and wrote this block ${Math.round(age / 1000)} s ago; its next checkpoint would overwrite your change. Stop the agent first, or send force: true.`,
      { details: { current: toBlock(latest) } },
    )
  }
}

async function commit(
  w: OperatorWrite,
  action: AuditAction,
  write: (expectedVersion: string) => Promise<WriteResult>,
): Promise<OperatorWriteResult> {
  const latest = await wmLatestRow(w.ref)
  if ((latest?.version ?? '0') !== w.expectedVersion) throw conflict(w.expectedVersion, latest)
  await guardActiveRun(w, latest)
  let result: WriteResult
  try {
    // The write module re-checks the version under the per-block lock, so two console
    // requests racing past the check above still cannot both write.
    result = await write(w.expectedVersion)
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict') {
      throw conflict(w.expectedVersion, (err.details?.current as WmRow | null) ?? null)
    }
    throw err
  }
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

function ctx(w: OperatorWrite) {
  return { actor: `operator:${w.operator}`, sourceTrace: CONSOLE_SOURCE_TRACE }
}

async function requireBlock(ref: BlockRef) {
  const latest = await wmLatestRow(ref)
  if (!latest) throw notFound(`No block ${ref.blockKey} in run ${ref.runId} for this user/session`)
  return latest
}

/** Edit: a new version with the operator's content. */
export async function editBlock(w: OperatorWrite & { content: string }) {
  await requireBlock(w.ref)
  return commit(w, 'edit', (expectedVersion) => wmSet(w.ref, w.content, ctx(w), { expectedVersion, verify: true }))
}

/** Clear: a tombstone, so the next resume() returns None. */
export async function clearBlock(w: OperatorWrite) {
  await requireBlock(w.ref)
  return commit(w, 'clear', (expectedVersion) => wmDelete(w.ref, ctx(w), { expectedVersion, verify: true }))
}

/** A version's row from the captured history or, failing that, the physical rows. */
async function findVersion(ref: BlockRef, version: string): Promise<WmRow | null> {
  const t = tableNames()
  const where = `org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String}
    AND user_id = {user_id:String} AND session_id = {session_id:String} AND run_id = {run_id:String}
    AND block_key = {block_key:String} AND version = {version:UInt64}`
  const params = {
    org: ref.org,
    namespace: ref.namespace,
    agent: ref.agent,
    user_id: ref.userId,
    session_id: ref.sessionId,
    run_id: ref.runId,
    block_key: ref.blockKey,
    version,
  }
  const sources = (await tableExists(t.history)) ? [t.history, t.workingMemory] : [t.workingMemory]
  for (const table of sources) {
    const rows = await queryRows(
      `SELECT ${WM_COLUMNS} FROM ${source(table)} WHERE ${where} ORDER BY updated_at DESC LIMIT 1`,
      params,
      wmRowSchema,
    )
    if (rows[0]) return rows[0]
  }
  return null
}

/** Restore: an earlier version's content back as a new version. */
export async function restoreBlock(w: OperatorWrite & { version: string }) {
  await requireBlock(w.ref)
  const source = await findVersion(w.ref, w.version)
  if (!source) {
    throw notFound(`Version ${w.version} of this block is not in the captured history or the unmerged rows; it cannot be restored`)
  }
  if (source.is_deleted === 1) {
    throw new AppError('invalid', `version: ${w.version} is a tombstone; use clear to empty the block`, {
      details: { field: 'version' },
    })
  }
  return commit(w, 'restore', (expectedVersion) =>
    wmSet(w.ref, source.content, ctx(w), { expectedVersion, verify: true }),
  )
}

