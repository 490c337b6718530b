/**
 * The union backend: the run set computed on every request from `loom.runs` rows (latest version,
 * via FINAL) plus the checkpoint-only runs grouped from working memory, which have status
 * `unknown`, match `q` on their run_id and agent only, and count as started at their first
 * working-memory write. The fallback when the run index is not installed.
 */
import { join, param, sql, trusted, type Sql } from '../clickhouse/sql'
import { tableNames, source } from '../loom/tables'
import { filterParts, type RunsFilter } from './filter'
import { identityConditions, runRowConditions, runValueConditions, timeConditions, where } from './conditions'
import { keysetAfter, LIST_ORDER, type ListKey } from './order'
import { qMatchesOrphan } from './q'

const UNION_ALL = '\nUNION ALL\n'

/** Working-memory conditions of the checkpoint-only runs: identity, and `q` on run_id and agent. */
function orphanRowConditions(f: RunsFilter): Sql[] {
  return [...identityConditions(f), ...(f.q !== undefined ? [qMatchesOrphan(f.q)] : [])]
}

/** Leaves out runs that have a `loom.runs` row (the identity prefix narrows the lookup). */
function withoutRunRow(f: RunsFilter): Sql {
  const runs = trusted(source(tableNames().runs))
  return sql`(org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${runs} ${where(identityConditions(f))})`
}

/** Checkpoint-only runs that pass the filter: `org, namespace, agent, run_id, started_at`. */
export function orphanRunsSql(f: RunsFilter): Sql {
  const wm = trusted(source(tableNames().workingMemory))
  return sql`SELECT org, namespace, agent, run_id, min(updated_at) AS started_at
    FROM ${wm} ${where(orphanRowConditions(f))}
    GROUP BY org, namespace, agent, run_id
    HAVING ${join([withoutRunRow(f), ...timeConditions(f)], ' AND ')}`
}

/** Every run of the set as `org, namespace, agent, run_id, status, started_at` (a subquery). */
export function unionRunsSql(f: RunsFilter): Sql {
  const { withRuns, withOrphans } = filterParts(f)
  const parts: Sql[] = []
  if (withRuns) {
    parts.push(sql`SELECT org, namespace, agent, run_id, toString(status) AS status, started_at
      FROM ${trusted(source(tableNames().runs, { final: true }))} ${where(runRowConditions(f))}`)
  }
  if (withOrphans)
    parts.push(sql`SELECT org, namespace, agent, run_id, 'unknown' AS status, started_at FROM (${orphanRunsSql(f)})`)
  return join(parts, UNION_ALL)
}

/** One page of list rows after `after` (limit + 1 rows, so the caller can tell there are more), newest first. */
export function unionPageSql(f: RunsFilter, after: ListKey | undefined, limit: number): Sql {
  const t = tableNames()
  const { withRuns, withOrphans } = filterParts(f)
  const ident = identityConditions(f)
  const parts: Sql[] = []
  if (withRuns) {
    parts.push(sql`SELECT org, namespace, agent, run_id, user_id, session_id, goal, toString(status) AS status,
        attempt, started_at, completed_at, duration_ms, turns, cost_usd
      FROM ${trusted(source(t.runs, { final: true }))} ${where([...ident, ...runValueConditions(f)])}`)
  }
  if (withOrphans) {
    parts.push(sql`SELECT org, namespace, agent, run_id,
        argMax(user_id, (updated_at, version)) AS user_id, argMax(session_id, (updated_at, version)) AS session_id,
        '' AS goal, 'unknown' AS status, toUInt32(0) AS attempt, min(updated_at) AS started_at,
        CAST(NULL, 'Nullable(DateTime64(3, \\'UTC\\'))') AS completed_at, CAST(NULL, 'Nullable(UInt64)') AS duration_ms,
        toUInt32(0) AS turns, toFloat64(0) AS cost_usd
      FROM ${trusted(source(t.workingMemory))} ${where(orphanRowConditions(f))}
      GROUP BY org, namespace, agent, run_id
      HAVING ${withoutRunRow(f)}`)
  }
  const outer = [...timeConditions(f), ...(after ? [keysetAfter(after)] : [])]
  return sql`SELECT org, namespace, agent, run_id, user_id, session_id, goal, status, attempt,
      toString(started_at) AS started_text, toString(completed_at) AS completed_text, duration_ms, turns, cost_usd
    FROM (${join(parts, UNION_ALL)})
    ${where(outer)}
    ORDER BY ${LIST_ORDER}
    LIMIT ${param('limit', 'UInt32', limit + 1)}`
}
