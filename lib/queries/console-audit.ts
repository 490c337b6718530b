/**
 * Every operator write the console recorded, across runs: the audit page. Newest first, in keyset
 * pages over (at, org, namespace, agent, run_id, block_key, after_version); contents are not read.
 * The audit table holds operator actions only (a few per run at most), so a console-wide read stays
 * small; an org, namespace or agent filter binds the sorting key's prefix.
 */
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import { versionString } from '../tables/values'
import { auditLateColumns } from '../loom/audit'
import { tableNames } from '../loom/tables'
import { links } from '../links'
import { runIdentityColumns } from '../run-set/list-row'
import { tableExists } from '../clickhouse/schema-presence'
import { auditBatchFields, undoneBatches } from './batch-undoes'
import { encodeAuditCursor, type AuditCursor } from '../api/audit-cursor'
import type { ConsoleAuditPage } from '../endpoints/story'
export type { ConsoleAuditEntry, ConsoleAuditPage } from '../endpoints/story'

export type ConsoleAuditQuery = {
  operator?: string
  org?: string
  namespace?: string
  agent?: string
  runId?: string
  batchId?: string
  action?: 'edit' | 'clear' | 'restore'
  from?: Date
  to?: Date
  cursor?: AuditCursor
  limit: number
}

const rowSchema = z.object({
  at: z.string(),
  operator: z.string(),
  action: z.string(),
  reason: z.string(),
  ...runIdentityColumns.shape,
  block_key: z.string(),
  before_version: versionString,
  after_version: versionString,
  batch_id: z.string(),
  restored_version: z.string(),
})

const toChTime = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '')

export async function consoleAudit(q: ConsoleAuditQuery, signal?: AbortSignal): Promise<ConsoleAuditPage> {
  const t = tableNames()
  if (!(await tableExists(t.audit, signal))) return { installed: false, entries: [], nextCursor: null }
  const late = await auditLateColumns(signal)
  const where: Sql[] = []
  // In sorting-key order: each one given narrows the read to a key range.
  if (q.org !== undefined) where.push(sql`org = ${param('org', 'String', q.org)}`)
  if (q.namespace !== undefined) where.push(sql`namespace = ${param('namespace', 'String', q.namespace)}`)
  if (q.agent !== undefined) where.push(sql`agent = ${param('agent', 'String', q.agent)}`)
  if (q.runId !== undefined) where.push(sql`run_id = ${param('run_id', 'String', q.runId)}`)
  if (q.operator !== undefined) where.push(sql`operator = ${param('operator', 'String', q.operator)}`)
  if (q.action !== undefined) where.push(sql`action = ${param('action', 'String', q.action)}`)
  if (q.batchId !== undefined)
    where.push(late.has('batch_id') ? sql`batch_id = ${param('batch_id', 'String', q.batchId)}` : trusted('0'))
  if (q.from) where.push(sql`at >= ${param('from', "DateTime64(3, 'UTC')", toChTime(q.from))}`)
  if (q.to) where.push(sql`at <= ${param('to', "DateTime64(3, 'UTC')", toChTime(q.to))}`)
  if (q.cursor) {
    const c = q.cursor
    where.push(sql`(at, org, namespace, agent, run_id, block_key, after_version) < (${param('c_at', "DateTime64(3, 'UTC')", c.at)},
      ${param('c_org', 'String', c.org)}, ${param('c_ns', 'String', c.namespace)}, ${param('c_agent', 'String', c.agent)},
      ${param('c_run', 'String', c.runId)}, ${param('c_block', 'String', c.blockKey)}, ${param('c_after', 'UInt64', c.afterVersion)})`)
  }
  const batchColumn = trusted(late.has('batch_id') ? 'batch_id' : "'' AS batch_id")
  const restoredColumn = trusted(late.has('restored_version') ? 'restored_version' : "'' AS restored_version")
  const conditions = where.length ? where.reduce((a, b) => sql`${a} AND ${b}`) : trusted('1')
  const rows = await selectRows(
    sql`SELECT toString(at) AS at, operator, action, reason, org, namespace, agent, run_id, user_id, session_id, block_key,
        before_version, after_version, ${batchColumn}, ${restoredColumn}
     FROM ${trusted(t.audit)} WHERE ${conditions}
     ORDER BY at DESC, org DESC, namespace DESC, agent DESC, run_id DESC, block_key DESC, after_version DESC
     LIMIT ${param('limit', 'UInt32', q.limit + 1)}`,
    rowSchema,
    { signal },
  )
  const page = rows.slice(0, q.limit)
  const last = page[page.length - 1]
  const undoes = await undoneBatches(
    page.map((r) => r.batch_id),
    signal,
  )
  return {
    installed: true,
    nextCursor:
      rows.length > q.limit && last
        ? encodeAuditCursor({
            at: last.at,
            org: last.org,
            namespace: last.namespace,
            agent: last.agent,
            runId: last.run_id,
            blockKey: last.block_key,
            afterVersion: last.after_version,
          })
        : null,
    entries: page.map((r) => {
      const run = { org: r.org, namespace: r.namespace, agent: r.agent, runId: r.run_id }
      return {
        at: chTimeToIso(r.at),
        operator: r.operator,
        action: r.action,
        reason: r.reason,
        ...run,
        userId: r.user_id,
        sessionId: r.session_id,
        blockKey: r.block_key,
        beforeVersion: r.before_version,
        afterVersion: r.after_version,
        ...auditBatchFields(r, undoes),
        href: links.run(run, { tab: 'audit' }),
      }
    }),
  }
}
