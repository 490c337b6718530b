/**
 * Conditions that narrow working-memory reads to one run. `user_id` and `session_id` sit before
 * `run_id` in that table's sorting key, so `run_id` alone leaves ClickHouse reading the agent's
 * whole range; with the run index installed, the run's (user_id, session_id) pairs come from it and
 * bind the whole prefix, together with the pairs of rows written since the last derivation batch.
 * Same rows either way: between them they hold every pair the run ever wrote under.
 */
import { param, sql, trusted, type Sql } from '../clickhouse/sql'
import type { RunRef } from '../loom/identity'
import { runScope } from '../loom/scope'
import { indexNames, runIndexReady } from '../run-set/run-index'
import { underivedTail } from '../derived/derive'
import { PART_MAX_BLOCK } from '../derived/statements'

/**
 * The identities of rows not derived yet (written since the last batch), so a run's own page stays
 * exact between batches: the parts past the derived watermark are few and small.
 */
function tailIdentities(columns: string, where: Sql): Sql | null {
  const tail = underivedTail()
  if (!tail) return null
  return sql`SELECT ${trusted(columns)} FROM ${trusted(tail.table)} WHERE ${where} AND ${trusted(PART_MAX_BLOCK)} > ${param('tail_after', 'UInt64', tail.afterBlock)}`
}

/** One run's rows in working memory (or its history copy). */
export async function workingMemoryRunScope(run: RunRef, signal?: AbortSignal): Promise<Sql> {
  const scope = runScope(run)
  if (!(await runIndexReady(signal))) return scope
  const tail = underivedTail()
  // Not known yet which rows are derived: the run's whole agent range, exact.
  if (!tail) return scope
  return sql`${scope} AND (user_id, session_id) IN (SELECT user_id, session_id FROM ${trusted(indexNames().sessions)} WHERE ${scope}
    UNION ALL ${tailIdentities('user_id, session_id', scope)!})`
}

/**
 * Narrows a namespace-wide working-memory read for one run_id to the identities that run wrote
 * under, when the index is installed; `1` otherwise.
 */
export async function runIdentitiesScope(
  run: { org: string; namespace: string; runId: string },
  signal?: AbortSignal,
): Promise<Sql> {
  if (!(await runIndexReady(signal))) return trusted('1')
  const where = sql`org = ${param('org', 'String', run.org)} AND namespace = ${param('namespace', 'String', run.namespace)}
      AND run_id = ${param('run_id', 'String', run.runId)}`
  const tail = tailIdentities('agent, user_id, session_id', where)
  if (!tail) return trusted('1')
  return sql`(agent, user_id, session_id) IN (SELECT agent, user_id, session_id FROM ${trusted(indexNames().sessions)} WHERE ${where}
    UNION ALL ${tail})`
}
