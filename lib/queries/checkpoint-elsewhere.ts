import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { versionString } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import type { ElsewhereRow, Identity } from '../resume/types'
import { wmRunIdentities } from './wm-run-scope'
import { tableExists } from './schema-presence'

const rowSchema = z.object({
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  version: versionString,
  is_deleted: z.coerce.number(),
  updated_at: z.string().transform(chTimeToIso),
  content: z.string(),
})

/** Rows kept per call: enough for any real near miss, bounded for a pathological one. */
const MAX_ROWS = 2000

export type ElsewhereScope = { org: string; namespace: string; runId: string; blockKey: string }

/**
 * Every version of the run's block under another agent, user_id or session_id of the namespace
 * (from the captured history when installed, else the unmerged rows), newest first: what a resume
 * under `own` could not see, and when each appeared. Bound by the (org, namespace) key prefix.
 */
export async function blockElsewhere(scope: ElsewhereScope, own: Identity, signal?: AbortSignal): Promise<ElsewhereRow[]> {
  const t = tableNames()
  const table = (await tableExists(t.history, signal)) ? t.history : source(t.workingMemory)
  const rows = await queryRows(
    `SELECT agent, user_id, session_id, version, is_deleted, updated_at, content
     FROM ${table}
     WHERE org = {org:String} AND namespace = {namespace:String} AND run_id = {run_id:String} AND block_key = {block_key:String}
       AND NOT (agent = {agent:String} AND user_id = {user_id:String} AND session_id = {session_id:String})
       AND ${await wmRunIdentities(signal)}
     ORDER BY updated_at DESC
     LIMIT ${MAX_ROWS}`,
    {
      org: scope.org,
      namespace: scope.namespace,
      run_id: scope.runId,
      block_key: scope.blockKey,
      agent: own.agent,
      user_id: own.userId,
      session_id: own.sessionId,
    },
    rowSchema,
    { signal },
  )
  return rows.map((r) => ({
    agent: r.agent,
    userId: r.user_id,
    sessionId: r.session_id,
    version: r.version,
    isDeleted: r.is_deleted === 1,
    updatedAt: r.updated_at,
    content: r.content,
  }))
}
