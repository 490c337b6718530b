import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso } from '../tables/time'
import { versionString } from '../tables/values'
import { tableNames, source } from '../loom/tables'
import type { ElsewhereRow, Identity } from '../resume/types'
import { runIdentitiesScope } from './wm-run-scope'
import { tableExists } from '../clickhouse/schema-presence'

/** A version of the block under another identity, as the resume detection reads it. */
export const elsewhereRowSchema = z.object({
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  version: versionString,
  is_deleted: z.coerce.number(),
  updated_at: z.string().transform(chTimeToIso),
  content: z.string(),
})

/** A row of the block under another identity as the resume detection takes it. */
export const toElsewhereRow = (r: z.infer<typeof elsewhereRowSchema>): ElsewhereRow => ({
  agent: r.agent,
  userId: r.user_id,
  sessionId: r.session_id,
  version: r.version,
  isDeleted: r.is_deleted === 1,
  updatedAt: r.updated_at,
  content: r.content,
})

/** Rows kept per call: enough for any real near miss, bounded for a pathological one. */
export const ELSEWHERE_MAX_ROWS = 2000

export type ElsewhereScope = { org: string; namespace: string; runId: string; blockKey: string }

/**
 * The run's block under any identity of the namespace but `own`, limited to the identities the run
 * index saw the run write under when it is installed.
 */
export async function otherIdentitiesOfBlock(scope: ElsewhereScope, own: Identity, signal?: AbortSignal): Promise<Sql> {
  return sql`org = ${param('org', 'String', scope.org)} AND namespace = ${param('namespace', 'String', scope.namespace)}
       AND run_id = ${param('run_id', 'String', scope.runId)} AND block_key = ${param('block_key', 'String', scope.blockKey)}
       AND NOT (agent = ${param('agent', 'String', own.agent)} AND user_id = ${param('user_id', 'String', own.userId)}
         AND session_id = ${param('session_id', 'String', own.sessionId)})
       AND ${await runIdentitiesScope(scope, signal)}`
}

/**
 * Every version of the run's block under another agent, user_id or session_id of the namespace
 * (from the captured history when installed, else the unmerged rows), newest first: what a resume
 * under `own` could not see, and when each appeared. Bound by the (org, namespace) key prefix.
 */
export async function blockElsewhere(
  scope: ElsewhereScope,
  own: Identity,
  signal?: AbortSignal,
): Promise<ElsewhereRow[]> {
  const t = tableNames()
  const table = (await tableExists(t.history, signal)) ? t.history : source(t.workingMemory)
  const rows = await selectRows(
    sql`SELECT agent, user_id, session_id, version, is_deleted, updated_at, content
     FROM ${trusted(table)}
     WHERE ${await otherIdentitiesOfBlock(scope, own, signal)}
     ORDER BY updated_at DESC
     LIMIT ${trusted(String(ELSEWHERE_MAX_ROWS))}`,
    elsewhereRowSchema,
    { signal },
  )
  return rows.map(toElsewhereRow)
}
