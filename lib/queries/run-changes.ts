/**
 * Which runs were written since a watermark, so the runs page can poll cheaply and refetch its
 * list only when something it shows (or would show) changed.
 *
 * A run's latest write is the newer of its last `run.begin` and its `run.complete`
 * (greatest(last_begin_at, completed_at) in `loom.runs`) and of its working-memory rows'
 * updated_at. Both are read WITHOUT FINAL: any row version stamped after the watermark proves a
 * write after it, and skipping the merge keeps a poll to a scan of a few timestamp columns within
 * the identity prefix. Only the runs found are then looked up (by key) for their current status.
 */
import { TupleParam } from '@clickhouse/client'
import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { chTimeToIso, toChTime } from '../clickhouse/time'
import { tableNames, source } from '../loom/tables'
import type { RunFlag } from '../triage/flags'
import { Q_GOAL_OR_ID, Q_ID, filterParams, filterParts, identityConditions, requireIndexForFlags, timeConditions, whereSql } from './run-filter-sql'
import { flagsOfRuns } from './run-flags'
import { runIndexReady } from './run-index'
import type { RunsFilter } from './runs'
import { rowRunKey } from '../loom/identity'

export type RunChange = {
  org: string
  namespace: string
  agent: string
  runId: string
  /** The run's status now (`unknown` for a checkpoint-only run). */
  status: string
  /** Its latest write, ISO 8601 UTC. */
  changedAt: string
  /** Whether the run passes the whole filter now (status, q, from, to); runs are reported either way,
   *  so a run that just left the filter (e.g. finished while the view shows `running`) is seen too. */
  inFilter: boolean
}

export type RunChanges = {
  /** Pass back as `since` on the next poll. */
  since: string
  runs: RunChange[]
  /** More runs changed than are listed: refetch everything. */
  truncated: boolean
}

/**
 * The next watermark trails the server's clock by this much, so a write stamped a little in the
 * past (another writer's clock, an insert in flight) is still seen; a run may then be reported
 * twice with the same changedAt, which the client ignores.
 */
export const CHANGES_OVERLAP_MS = 10_000
export const MAX_CHANGES = 200

const changedSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  changed_text: z.string(),
})
const matchSchema = z.object({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  run_id: z.string(),
  status: z.string(),
  in_filter: z.coerce.number(),
})

const keyOf = rowRunKey
const tupleOf = (r: { org: string; namespace: string; agent: string; run_id: string }) =>
  new TupleParam([r.org, r.namespace, r.agent, r.run_id])
const all = (conds: string[]) => (conds.length ? conds.join(' AND ') : '1')

export async function runChanges(f: RunsFilter, since: Date | undefined, signal?: AbortSignal, now = Date.now()): Promise<RunChanges> {
  const next = new Date(now - CHANGES_OVERLAP_MS).toISOString()
  // The first poll only fetches a watermark: the list was just read.
  if (!since) return { since: next, runs: [], truncated: false }
  const t = tableNames()
  const ident = identityConditions(f)
  const params = { ...filterParams(f), since: toChTime(since), limit: MAX_CHANGES + 1 }
  const SINCE = "{since:DateTime64(3, 'UTC')}"
  const changed = await queryRows(
    `SELECT org, namespace, agent, run_id, toString(max(at)) AS changed_text
     FROM (
       SELECT org, namespace, agent, run_id, greatest(last_begin_at, ifNull(completed_at, last_begin_at)) AS at
       FROM ${source(t.runs)} ${whereSql([...ident, `(last_begin_at > ${SINCE} OR completed_at > ${SINCE})`])}
       UNION ALL
       SELECT org, namespace, agent, run_id, updated_at AS at
       FROM ${source(t.workingMemory)} ${whereSql([...ident, `updated_at > ${SINCE}`])}
     )
     GROUP BY org, namespace, agent, run_id
     ORDER BY max(at) DESC, org, namespace, agent, run_id
     LIMIT {limit:UInt32}`,
    params,
    changedSchema,
    { signal },
  )
  const truncated = changed.length > MAX_CHANGES
  const page = changed.slice(0, MAX_CHANGES)
  if (page.length === 0) return { since: next, runs: [], truncated }

  const keys = page.map(tupleOf)
  const runConds = [...(f.status !== undefined ? ['status = {status:String}'] : []), ...(f.q !== undefined ? [Q_GOAL_OR_ID] : [])]
  const withRunRow = await queryRows(
    `SELECT org, namespace, agent, run_id, toString(status) AS status, ${all([...runConds, ...timeConditions(f, 'started_at')])} AS in_filter
     FROM ${source(t.runs, { final: true })}
     WHERE (org, namespace, agent, run_id) IN {keys:Array(Tuple(String, String, String, String))}`,
    { ...params, keys },
    matchSchema,
    { signal },
  )
  const found = new Map(withRunRow.map((r) => [keyOf(r), r]))
  const orphans = page.filter((r) => !found.has(keyOf(r)))
  // A checkpoint-only run passes `q` on its run_id and the time range on its first write.
  if (orphans.length && filterParts(f).withOrphans && (f.q !== undefined || f.from || f.to)) {
    const orphanRows = await queryRows(
      `SELECT org, namespace, agent, run_id, 'unknown' AS status,
         ${all([...(f.q !== undefined ? [Q_ID] : []), ...timeConditions(f, 'min(updated_at)')])} AS in_filter
       FROM ${source(t.workingMemory)}
       ${whereSql([...ident, '(org, namespace, agent, run_id) IN {keys:Array(Tuple(String, String, String, String))}'])}
       GROUP BY org, namespace, agent, run_id`,
      { ...params, keys: orphans.map(tupleOf) },
      matchSchema,
      { signal },
    )
    for (const r of orphanRows) found.set(keyOf(r), r)
  }
  const orphanInFilter = filterParts(f).withOrphans && f.q === undefined && !f.from && !f.to
  // With flag filters a changed run is in the list only while it carries every named flag.
  let flagged: Map<string, RunFlag[]> | null = null
  if (f.flag?.length) {
    const indexed = await runIndexReady(signal)
    requireIndexForFlags(f, indexed)
    flagged = await flagsOfRuns(page, indexed, signal, new Date(now))
  }
  const hasFlags = (r: (typeof page)[number]) => !flagged || (f.flag ?? []).every((x) => flagged.get(keyOf(r))?.includes(x))
  return {
    since: next,
    truncated,
    runs: page.map((r) => {
      const m = found.get(keyOf(r))
      return {
        org: r.org,
        namespace: r.namespace,
        agent: r.agent,
        runId: r.run_id,
        status: m?.status ?? 'unknown',
        changedAt: chTimeToIso(r.changed_text),
        inFilter: (m ? m.in_filter === 1 : orphanInFilter) && hasFlags(r),
      }
    }),
  }
}
