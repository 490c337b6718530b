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
import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { and, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { chTimeToIso, toChTime } from '../tables/time'
import { rowRunKey } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import type { RunFlag } from '../triage/flags'
import {
  CH_TIME_TYPE,
  identityConditions,
  inRunKeys,
  runValueConditions,
  timeConditions,
  where,
} from '../run-set/conditions'
import { filterParts, type RunsFilter } from '../run-set/filter'
import { qMatchesOrphan } from '../run-set/q'
import { openRunSet } from '../run-set/run-set'
import type { RunChanges } from '../endpoints/runs'

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

/** Runs with a write after `since` within the filter's identity prefix, latest first (one more than MAX_CHANGES). */
function changedSql(f: RunsFilter, since: Date): Sql {
  const t = tableNames()
  const ident = identityConditions(f)
  const after = param('since', CH_TIME_TYPE, toChTime(since))
  return sql`SELECT org, namespace, agent, run_id, toString(max(at)) AS changed_text
     FROM (
       SELECT org, namespace, agent, run_id, greatest(last_begin_at, ifNull(completed_at, last_begin_at)) AS at
       FROM ${trusted(source(t.runs))} ${where([...ident, sql`(last_begin_at > ${after} OR completed_at > ${after})`])}
       UNION ALL
       SELECT org, namespace, agent, run_id, updated_at AS at
       FROM ${trusted(source(t.workingMemory))} ${where([...ident, sql`updated_at > ${after}`])}
     )
     GROUP BY org, namespace, agent, run_id
     ORDER BY max(at) DESC, org, namespace, agent, run_id
     LIMIT ${param('limit', 'UInt32', MAX_CHANGES + 1)}`
}

export async function runChanges(
  f: RunsFilter,
  since: Date | undefined,
  signal?: AbortSignal,
  now = Date.now(),
): Promise<RunChanges> {
  const next = new Date(now - CHANGES_OVERLAP_MS).toISOString()
  // The first poll only fetches a watermark: the list was just read.
  if (!since) return { since: next, runs: [], truncated: false }
  const t = tableNames()
  const changed = await selectRows(changedSql(f, since), changedSchema, { signal })
  const truncated = changed.length > MAX_CHANGES
  const page = changed.slice(0, MAX_CHANGES)
  if (page.length === 0) return { since: next, runs: [], truncated }

  const withRunRow = await selectRows(
    sql`SELECT org, namespace, agent, run_id, toString(status) AS status, ${and([...runValueConditions(f), ...timeConditions(f)])} AS in_filter
     FROM ${trusted(source(t.runs, { final: true }))}
     WHERE ${inRunKeys('keys', page)}`,
    matchSchema,
    { signal },
  )
  const found = new Map(withRunRow.map((r) => [keyOf(r), r]))
  const orphans = page.filter((r) => !found.has(keyOf(r)))
  // A checkpoint-only run passes `q` on its run_id and the time range on its first write.
  if (orphans.length && filterParts(f).withOrphans && (f.q !== undefined || f.from || f.to)) {
    const inFilter = and([
      ...(f.q !== undefined ? [qMatchesOrphan(f.q)] : []),
      ...timeConditions(f, trusted('min(updated_at)')),
    ])
    const orphanRows = await selectRows(
      sql`SELECT org, namespace, agent, run_id, 'unknown' AS status, ${inFilter} AS in_filter
       FROM ${trusted(source(t.workingMemory))}
       ${where([...identityConditions(f), inRunKeys('keys', orphans)])}
       GROUP BY org, namespace, agent, run_id`,
      matchSchema,
      { signal },
    )
    for (const r of orphanRows) found.set(keyOf(r), r)
  }
  const orphanInFilter = filterParts(f).withOrphans && f.q === undefined && !f.from && !f.to
  // With flag filters a changed run is in the list only while it carries every named flag.
  let flagged: Map<string, RunFlag[]> | null = null
  if (f.flag?.length) {
    const set = await openRunSet(f, { signal })
    flagged = await set.flagsOf(page, { now: new Date(now) })
  }
  const hasFlags = (r: (typeof page)[number]) =>
    !flagged || (f.flag ?? []).every((x) => flagged.get(keyOf(r))?.includes(x))
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
