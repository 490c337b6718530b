import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import type { RunRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { runScope } from '../loom/scope'
import { tableNames } from '../loom/tables'
import { auditLateColumns } from '../loom/audit'
import { tableExists } from '../clickhouse/schema-presence'
import { auditBatchFields, undoneBatches } from './batch-undoes'
import { AUDIT_CAP, keepCap, overCap, type ListCut } from './list-cut'
import type { AuditEntry } from '../endpoints/story'
export type { AuditEntry } from '../endpoints/story'

const auditRowSchema = z.object({
  at: z.string().transform(chTimeToIso),
  operator: z.string(),
  action: z.string(),
  reason: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  block_key: z.string(),
  before_version: versionString,
  after_version: versionString,
  before_content: z.string(),
  after_content: z.string(),
  batch_id: z.string(),
  restored_version: z.string(),
})

/** Operator actions on the run, newest first. */
export async function runAudit(
  run: RunRef,
  signal?: AbortSignal,
): Promise<{ entries: AuditEntry[]; installed: boolean; cuts: ListCut[] }> {
  const t = tableNames()
  if (!(await tableExists(t.audit, signal))) return { entries: [], installed: false, cuts: [] }
  const late = await auditLateColumns(signal)
  const batchColumn = trusted(late.has('batch_id') ? 'batch_id' : "'' AS batch_id")
  const restoredColumn = trusted(late.has('restored_version') ? 'restored_version' : "'' AS restored_version")
  const rows = await selectRows(
    sql`SELECT toString(at) AS at, operator, action, reason, user_id, session_id, block_key, before_version, after_version,
        before_content, after_content, ${batchColumn}, ${restoredColumn}
     FROM ${trusted(t.audit)} WHERE ${runScope(run)} ORDER BY at DESC LIMIT ${param('cap', 'UInt32', overCap(AUDIT_CAP))}`,
    auditRowSchema,
    { signal },
  )
  const cuts: ListCut[] = []
  const kept = keepCap(rows, AUDIT_CAP, 'entries', cuts)
  const undoes = await undoneBatches(
    kept.map((r) => r.batch_id),
    signal,
  )
  return {
    installed: true,
    cuts,
    entries: kept.map((r) => ({
      at: r.at,
      operator: r.operator,
      action: r.action,
      reason: r.reason,
      blockKey: r.block_key,
      userId: r.user_id,
      sessionId: r.session_id,
      beforeVersion: r.before_version,
      afterVersion: r.after_version,
      beforeContent: r.before_content,
      afterContent: r.after_content,
      ...auditBatchFields(r, undoes),
    })),
  }
}
