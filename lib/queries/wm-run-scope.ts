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

/**
 * `(columns) IN` the identities the run index saw under `where`, with those of the rows written
 * since its last batch; null when the index cannot tell (not installed, or not known yet which rows
 * are derived): the caller reads the whole range, exact.
 */
async function indexedIdentities(where: Sql, columns: string, signal?: AbortSignal): Promise<Sql | null> {
  if (!(await runIndexReady(signal))) return null
  const tail = tailIdentities(columns, where)
  if (!tail) return null
  return sql`(${trusted(columns)}) IN (SELECT ${trusted(columns)} FROM ${trusted(indexNames().sessions)} WHERE ${where}
    UNION ALL ${tail})`
}

/** One run's rows in working memory (or its history copy). */
export async function workingMemoryRunScope(run: RunRef, signal?: AbortSignal): Promise<Sql> {
  const scope = runScope(run)
  const identities = await indexedIdentities(scope, 'user_id, session_id', signal)
  return identities ? sql`${scope} AND ${identities}` : scope
}

/** Several runs' rows in working memory: `keys` binds their (org, namespace, agent, run_id). */
export async function workingMemoryRunsScope(keys: Sql, signal?: AbortSignal): Promise<Sql> {
  const identities = await indexedIdentities(keys, 'org, namespace, agent, user_id, session_id, run_id', signal)
  return identities ? sql`${keys} AND ${identities}` : keys
}

/**
 * Narrows a namespace-wide working-memory read for one run_id to the identities that run wrote
 * under, when the index is installed; `1` otherwise.
 */
export async function runIdentitiesScope(
  run: { org: string; namespace: string; runId: string },
  signal?: AbortSignal,
): Promise<Sql> {
  const where = sql`org = ${param('org', 'String', run.org)} AND namespace = ${param('namespace', 'String', run.namespace)}
      AND run_id = ${param('run_id', 'String', run.runId)}`
  return (await indexedIdentities(where, 'agent, user_id, session_id', signal)) ?? trusted('1')
}

/** The same for several run_ids at once: `ids` binds their (org, namespace, run_id). */
export async function runsIdentitiesScope(ids: Sql, signal?: AbortSignal): Promise<Sql> {
  return (await indexedIdentities(ids, 'org, namespace, run_id, agent, user_id, session_id', signal)) ?? trusted('1')
}
