import { join, sql, trusted, type Sql } from '../clickhouse/sql'
import { tableNames, source } from '../loom/tables'
import { flaggedRunsCondition } from './run-flags'
import { indexNames } from './run-index'
import { identityConditions, runValueConditions, timeConditions, where } from './conditions'
import type { RunsFilter } from './filter'

/**
 * One row per run of the set (org, namespace, agent, run_id, status, started_at), from the run
 * index, for aggregations over the list's filters (charts, counts): the same runs as the union
 * backend, without grouping working memory. `now`: the moment flags are judged at.
 */
export async function indexRunsSql(filter: RunsFilter, now: Date): Promise<Sql> {
  const ix = indexNames()
  const ident = identityConditions(filter)
  const outer = runValueConditions(filter)
  if (filter.flag?.length) outer.push(await flaggedRunsCondition(filter.flag, filter, now))
  // Checkpoint-only runs: first write, no run row marked later, none in loom.runs (a race).
  const orphans = sql`SELECT org, namespace, agent, run_id, min(first_at) FROM ${trusted(ix.orphans)} ${where(ident)}
      GROUP BY org, namespace, agent, run_id HAVING max(has_run_row) = 0`
  const also = outer.length ? sql` AND ${join(outer, ' AND ')}` : trusted('')
  // FINAL (latest version of each row): an ordered merge, far cheaper than a hash GROUP BY here.
  // Filters on status and goal stay outside it, so they judge the latest version only.
  return sql`SELECT org, namespace, agent, run_id, status, started_at FROM (
    SELECT org, namespace, agent, run_id, toString(status) AS status, goal, started_at, kind
    FROM ${trusted(ix.runs)} FINAL ${where([...ident, ...timeConditions(filter)])})
  WHERE (kind = 0 OR ((org, namespace, agent, run_id, started_at) IN (${orphans})
      AND (org, namespace, agent, run_id) NOT IN (SELECT org, namespace, agent, run_id FROM ${trusted(source(tableNames().runs))}
        WHERE (org, namespace, agent, run_id) IN (SELECT org, namespace, agent, run_id FROM (${orphans})))))${also}`
}
